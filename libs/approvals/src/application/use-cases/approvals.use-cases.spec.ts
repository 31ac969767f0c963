import { FixedClock, type Caller } from '@igw/kernel';
import { parseEvent, Topics, type ApprovalEventV1, type CreateApprovalRequestDto } from '@igw/contracts';
import { approvalUseCases } from '../testing/approval-use-cases.fake';
import { InMemoryApprovalRepository } from '../testing/in-memory-approval.repository.fake';

const agent: Caller = { orgId: 'org_acme', keyId: 'key_agent', scope: 'read_only' };
const human: Caller = { orgId: 'org_acme', keyId: 'key_human', scope: 'policy_write' };
const outsider: Caller = { orgId: 'org_other', keyId: 'key_other', scope: 'admin' };

const setup = () => approvalUseCases(new InMemoryApprovalRepository(), new FixedClock(new Date('2026-03-01T10:00:00.000Z')));

const request = (extra: Partial<CreateApprovalRequestDto> = {}): CreateApprovalRequestDto =>
  ({
    source: 'evaluate',
    intent_label: 'crm.export',
    tool_name: 'export_customers',
    summary: 'export all customers',
    user_id: 'u_1',
    fingerprint: 'fp_1',
    ...extra,
  }) as CreateApprovalRequestDto;
const events = (repo: InMemoryApprovalRepository) =>
  repo.outbox.map((e) => ({ type: e.type, org: e.org_id, id: (e.data as ApprovalEventV1).id, status: (e.data as ApprovalEventV1).status }));

describe('approval use cases', () => {
  it('create queues a pending request for the calling key and emits approval.requested with the whole request', async () => {
    const s = setup();
    const created = await s.create.execute(agent, request());
    expect(created).toEqual({
      id: expect.stringMatching(/^apr_[0-9a-f]{32}$/),
      org_id: 'org_acme',
      status: 'pending',
      source: 'evaluate',
      intent_label: 'crm.export',
      intent_card_id: null,
      tool_name: 'export_customers',
      operation: null,
      summary: 'export all customers',
      requested_by_key_id: 'key_agent',
      user_id: 'u_1',
      created_at: '2026-03-01T10:00:00.000Z',
      expires_at: '2026-03-01T10:15:00.000Z',
      decided_at: null,
      decided_by_key_id: null,
      reason: null,
      reason_code: 'approval_required',
      candidates: [],
      tool_call: null,
    });
    const { org_id: _org, ...payload } = created;
    expect(s.repo.outbox).toEqual([expect.objectContaining({ type: Topics.ApprovalRequested.name, org_id: 'org_acme', schema_version: 1, data: payload })]);
    expect(await s.get.execute(agent, created.id)).toEqual(created);
  });

  it('a call already waiting for a decision gets its pending request back, not a second one; once decided or expired, a new one', async () => {
    const s = setup();
    const first = await s.create.execute(agent, request());
    expect(await s.create.execute(agent, request({ summary: 'again' }))).toEqual(first);
    expect((await s.create.execute(agent, request({ fingerprint: 'fp_other' }))).id).not.toBe(first.id);
    expect((await s.create.execute(outsider, request())).id).not.toBe(first.id);
    expect(s.repo.outbox.filter((e) => e.org_id === 'org_acme')).toHaveLength(2);

    await s.deny.execute(human, first.id);
    const second = await s.create.execute(agent, request());
    expect(second.id).not.toBe(first.id);
    s.clock.advance(16 * 60_000);
    const third = await s.create.execute(agent, request());
    expect(third.id).not.toBe(second.id);
  });

  it('refuses a malformed request from an in-process caller with 400 naming the field', async () => {
    const s = setup();
    await expect(s.create.execute(agent, request({ ttl_seconds: 5 }))).rejects.toMatchObject({
      code: 'invalid_request',
      extra: { details: [{ path: 'ttl_seconds' }] },
    });
    await expect(s.create.execute(agent, request({ summary: '' }))).rejects.toMatchObject({ code: 'invalid_request' });
    expect(s.repo.rows.size).toBe(0);
  });

  it('approve by another key: approved, decided_by, approval.approved; again → 409 invalid_transition', async () => {
    const s = setup();
    const { id } = await s.create.execute(agent, request());
    s.clock.advance(30_000);
    expect(await s.approve.execute(human, id)).toMatchObject({
      status: 'approved',
      decided_at: '2026-03-01T10:00:30.000Z',
      decided_by_key_id: 'key_human',
      reason: null,
    });
    await expect(s.approve.execute(human, id)).rejects.toMatchObject({ kind: 'conflict', code: 'invalid_transition' });
    await expect(s.deny.execute({ ...human, keyId: 'key_third' }, id)).rejects.toMatchObject({ code: 'invalid_transition' });
    expect(events(s.repo).map((e) => [e.type, e.status])).toEqual([
      [Topics.ApprovalRequested.name, 'pending'],
      [Topics.ApprovalApproved.name, 'approved'],
    ]);
  });

  it('deny with and without a reason emits approval.denied', async () => {
    const s = setup();
    const a = await s.create.execute(agent, request());
    const b = await s.create.execute(agent, request({ fingerprint: 'fp_2' }));
    expect(await s.deny.execute(human, a.id, { reason: 'too broad' })).toMatchObject({ status: 'denied', reason: 'too broad', decided_by_key_id: 'key_human' });
    expect(await s.deny.execute(human, b.id)).toMatchObject({ status: 'denied', reason: null });
    expect(events(s.repo).filter((e) => e.type === Topics.ApprovalDenied.name)).toHaveLength(2);
  });

  it('the requesting key may neither approve nor deny its own request (403 self_approval), even with admin scope', async () => {
    const s = setup();
    const { id } = await s.create.execute(agent, request());
    const self: Caller = { ...agent, scope: 'admin' };
    await expect(s.approve.execute(self, id)).rejects.toMatchObject({ kind: 'forbidden', code: 'self_approval' });
    await expect(s.deny.execute(self, id)).rejects.toMatchObject({ code: 'self_approval' });
    expect((await s.get.execute(human, id)).status).toBe('pending');
    expect(s.repo.outbox).toHaveLength(1);
  });

  it("another org's id is 404 for every operation, and its lists are separate", async () => {
    const s = setup();
    const { id } = await s.create.execute(agent, request());
    await expect(s.get.execute(outsider, id)).rejects.toMatchObject({ kind: 'not_found', code: 'not_found' });
    await expect(s.approve.execute(outsider, id)).rejects.toMatchObject({ kind: 'not_found' });
    await expect(s.deny.execute(outsider, id)).rejects.toMatchObject({ kind: 'not_found' });
    expect(await s.list.execute(outsider, {})).toEqual({ data: [], next_cursor: null });
    await s.approve.execute(human, id);
    expect(await s.consume.execute(outsider, 'fp_1')).toBeNull();
    expect(await s.consume.execute(agent, 'fp_1')).toMatchObject({ id });
  });

  it('a pending request past its deadline reads as expired, lists under expired and cannot be decided', async () => {
    const s = setup();
    const { id } = await s.create.execute(agent, request({ ttl_seconds: 60 }));
    s.clock.advance(59_999);
    expect((await s.get.execute(human, id)).status).toBe('pending');
    s.clock.advance(1);
    expect((await s.get.execute(human, id)).status).toBe('expired');
    expect((await s.list.execute(human, { status: 'pending' })).data).toEqual([]);
    expect((await s.list.execute(human, { status: 'expired' })).data.map((a) => a.id)).toEqual([id]);
    await expect(s.approve.execute(human, id)).rejects.toMatchObject({ code: 'invalid_transition' });
    await expect(s.deny.execute(human, id)).rejects.toMatchObject({ code: 'invalid_transition' });
  });

  it('the sweeper stores expired and emits approval.expired once per request', async () => {
    const s = setup();
    const short = await s.create.execute(agent, request({ ttl_seconds: 10, fingerprint: 'fp_short' }));
    const long = await s.create.execute(agent, request({ ttl_seconds: 600, fingerprint: 'fp_long' }));
    const decided = await s.create.execute(agent, request({ ttl_seconds: 10, fingerprint: 'fp_decided' }));
    await s.approve.execute(human, decided.id);
    s.clock.advance(10_000);
    expect(await s.expire.execute()).toBe(1);
    expect(await s.expire.execute()).toBe(0);
    expect(s.repo.rows.get(short.id)!.status).toBe('expired');
    expect(s.repo.rows.get(long.id)!.status).toBe('pending');
    expect(s.repo.rows.get(decided.id)!.status).toBe('approved');
    expect(events(s.repo).filter((e) => e.type === Topics.ApprovalExpired.name)).toEqual([
      { type: Topics.ApprovalExpired.name, org: 'org_acme', id: short.id, status: 'expired' },
    ]);
  });

  it('the sweeper works through a backlog larger than one batch', async () => {
    const s = setup();
    for (let i = 0; i < 7; i++) await s.create.execute(agent, request({ ttl_seconds: 10, fingerprint: `fp_${i}` }));
    s.clock.advance(10_000);
    expect(await s.expire.execute(3)).toBe(7);
    expect(s.repo.outbox.filter((e) => e.type === Topics.ApprovalExpired.name)).toHaveLength(7);
  });

  it('consume lets an approved call through once: oldest approval first, never a pending, denied, used or expired one', async () => {
    const s = setup();
    expect(await s.consume.execute(agent, 'fp_1')).toBeNull();
    const first = await s.create.execute(agent, request());
    expect(await s.consume.execute(agent, 'fp_1')).toBeNull();
    await s.approve.execute(human, first.id);
    s.clock.advance(1000);
    const second = await s.create.execute(agent, request());
    await s.approve.execute(human, second.id);
    const denied = await s.create.execute(agent, request());
    await s.deny.execute(human, denied.id);
    expect(await s.consume.execute(agent, 'fp_2')).toBeNull();
    expect((await s.consume.execute(agent, 'fp_1'))!.id).toBe(first.id);
    expect((await s.consume.execute(agent, 'fp_1'))!.id).toBe(second.id);
    expect(await s.consume.execute(agent, 'fp_1')).toBeNull();
    const late = await s.create.execute(agent, request({ fingerprint: 'fp_late', ttl_seconds: 60 }));
    await s.approve.execute(human, late.id);
    s.clock.advance(60_000);
    expect(await s.consume.execute(agent, 'fp_late')).toBeNull();
    // Using an approval emits nothing and changes nothing the public view shows.
    expect(s.repo.outbox.some((e) => !e.type.startsWith('approvals.approval.'))).toBe(false);
    await expect(s.consume.execute(agent, '')).rejects.toMatchObject({ code: 'invalid_request' });
  });

  it('lists newest first with a cursor and validates its parameters', async () => {
    const s = setup();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      ids.push((await s.create.execute(agent, request({ fingerprint: `fp_${i}` }))).id);
      if (i % 2 === 1) s.clock.advance(1000);
    }
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await s.list.execute(human, { limit: '2', cursor });
      seen.push(...page.data.map((a) => a.id));
      cursor = page.next_cursor ?? undefined;
    } while (cursor);
    expect(seen).toEqual([...ids].reverse());
    expect((await s.list.execute(human, {})).data).toHaveLength(5);
    await expect(s.list.execute(human, { status: 'open' })).rejects.toMatchObject({ extra: { details: [{ path: 'status' }] } });
    await expect(s.list.execute(human, { status: ['pending', 'approved'] })).rejects.toMatchObject({ extra: { details: [{ path: 'status' }] } });
    await expect(s.list.execute(human, { limit: '201' })).rejects.toMatchObject({ extra: { details: [{ path: 'limit' }] } });
    await expect(s.list.execute(human, { cursor: 'nope!' })).rejects.toMatchObject({ extra: { details: [{ path: 'cursor' }] } });
  });

  it('every event it emits is a valid approval.* v1 payload for its topic', async () => {
    const s = setup();
    const a = await s.create.execute(agent, request({ ttl_seconds: 10, fingerprint: 'fp_a' }));
    const b = await s.create.execute(
      agent,
      request({
        source: 'mcp_proxy',
        intent_label: undefined,
        tool_name: undefined,
        intent_card_id: 'card',
        operation: 'crm.read',
        user_id: undefined,
        fingerprint: 'fp_b',
      }),
    );
    const c = await s.create.execute(agent, request({ fingerprint: 'fp_c' }));
    await s.approve.execute(human, b.id);
    await s.deny.execute(human, c.id, { reason: 'no' });
    s.clock.advance(10_000);
    await s.expire.execute();
    expect(s.repo.outbox.map((e) => e.type)).toEqual([
      Topics.ApprovalRequested.name,
      Topics.ApprovalRequested.name,
      Topics.ApprovalRequested.name,
      Topics.ApprovalApproved.name,
      Topics.ApprovalDenied.name,
      Topics.ApprovalExpired.name,
    ]);
    for (const e of s.repo.outbox) expect(() => parseEvent<ApprovalEventV1>(e)).not.toThrow();
    expect(s.repo.outbox.at(-1)!.data).toMatchObject({ id: a.id, status: 'expired' });
  });
});
