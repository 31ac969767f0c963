import { randomUUID } from 'node:crypto';
import type { McpSession } from '../domain/mcp-session';
import type { McpSessionStore } from '../application/ports/mcp-session.store.port';

/** What every MCP session store does (memory in embedded mode, Redis when distributed). */
export function itBehavesAsAnMcpSessionStore(make: () => McpSessionStore) {
  const session = (orgId: string, extra: Partial<McpSession> = {}): McpSession => ({
    id: randomUUID(),
    orgId,
    keyId: `key_${orgId}`,
    server: 'files',
    mandatePath: true,
    capabilities: { tools: { listChanged: false } },
    upstream: { sessionId: 'up-1', protocolVersion: '2025-06-18' },
    ...extra,
  });
  const limits = { idleMs: 60_000, maxPerOrg: 2 };
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

  it('stores a session and gives it back only to its org', async () => {
    const store = make();
    const org = `org_${randomUUID()}`;
    const s = session(org, { instructions: 'be nice' });
    expect(await store.create(s, limits)).toBe(true);
    expect(await store.get(org, s.id)).toEqual(s);
    expect(await store.get(`org_${randomUUID()}`, s.id)).toBeNull();
    expect(await store.get(org, randomUUID())).toBeNull();
  });

  it('holds each org to its cap; an ended or expired session frees its place', async () => {
    const store = make();
    const [a, b] = [`org_${randomUUID()}`, `org_${randomUUID()}`];
    const first = session(a);
    expect(await store.create(first, limits)).toBe(true);
    expect(await store.create(session(a), limits)).toBe(true);
    expect(await store.create(session(a), limits)).toBe(false);
    expect(await store.create(session(b), limits)).toBe(true);
    await store.delete(first);
    expect(await store.get(a, first.id)).toBeNull();
    expect(await store.create(session(a), limits)).toBe(true);
    const short = { idleMs: 150, maxPerOrg: 1 };
    const c = `org_${randomUUID()}`;
    expect(await store.create(session(c), short)).toBe(true);
    expect(await store.create(session(c), short)).toBe(false);
    await sleep(300);
    expect(await store.create(session(c), short)).toBe(true);
  });

  it('concurrent creates never overshoot the cap', async () => {
    const store = make();
    const org = `org_${randomUUID()}`;
    const made = await Promise.all(Array.from({ length: 10 }, () => store.create(session(org), limits)));
    expect(made.filter(Boolean)).toHaveLength(2);
  });

  it('expires an unused session; touching keeps one in use alive', async () => {
    const store = make();
    const org = `org_${randomUUID()}`;
    const idle = { idleMs: 250, maxPerOrg: 5 };
    const [used, unused] = [session(org), session(org)];
    await store.create(used, idle);
    await store.create(unused, idle);
    for (let i = 0; i < 4; i++) {
      await sleep(100);
      await store.touch(used, idle.idleMs);
    }
    expect(await store.get(org, used.id)).toEqual(used);
    expect(await store.get(org, unused.id)).toBeNull();
  });

  it('update replaces what is stored but never brings back an ended session', async () => {
    const store = make();
    const org = `org_${randomUUID()}`;
    const s = session(org);
    await store.create(s, limits);
    const moved = { ...s, upstream: { sessionId: 'up-2', protocolVersion: '2025-06-18' } };
    await store.update(moved);
    expect(await store.get(org, s.id)).toEqual(moved);
    await store.delete(s);
    await store.update(moved);
    expect(await store.get(org, s.id)).toBeNull();
  });
}
