import { randomBytes, randomUUID } from 'node:crypto';
import { Logger, type INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import Redis from 'ioredis';
import { POLICY_REGISTRY_API, Topics, type EventEnvelope, type InstallIntentCardDto, type IntentionEventV1, type PolicyRegistryApi } from '@igw/contracts';
import { cardsKey, intentionsKey, MemoryVersionBoard, RedisVersionBoard, type VersionBoard } from '@igw/events';
import { DependencyUnavailableError, FixedClock, type Caller, type Clock } from '@igw/kernel';
import { migrate, openPostgresDatabase, type ServiceDatabase } from '@igw/persistence';
import { snapshotsDuring } from '../../application/testing/concurrent-snapshots';
import { ArchiveIntentionUseCase } from '../../application/use-cases/archive-intention.use-case';
import { CreateIntentionUseCase } from '../../application/use-cases/create-intention.use-case';
import { DeleteIntentCardUseCase } from '../../application/use-cases/delete-intent-card.use-case';
import { GetActiveIntentionsUseCase } from '../../application/use-cases/get-active-intentions.use-case';
import { InstallIntentCardUseCase } from '../../application/use-cases/install-intent-card.use-case';
import { PublishIntentionUseCase } from '../../application/use-cases/publish-intention.use-case';
import { POLICY_REGISTRY_MIGRATIONS, PolicyRegistryModule } from '../../policy-registry.module';
import { InProcessPolicyRegistryClient } from '../in-process/in-process-policy-registry.client';

const url = process.env.TEST_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const schema = `it_registry_${randomBytes(4).toString('hex')}`;

const caller = (orgId: string): Caller => ({ orgId, keyId: 'key_1', scope: 'policy_write' });
const card = {
  name: 'CRM assistant',
  allowed_scope: { operations: ['crm.read'], resources: ['crm://*'], forbidden_operations: [] },
  audiences: ['crm-api'],
  rules: [],
};

/** A board whose writes can be delayed or made to fail, recording what it was told. */
class ProbeBoard implements VersionBoard {
  readonly inner = new MemoryVersionBoard();
  readonly advanced: [string, number][] = [];
  delayMs = 0;
  failing = false;
  current(key: string) {
    return this.inner.current(key);
  }
  async advance(key: string, version: number) {
    if (this.delayMs) await new Promise((r) => setTimeout(r, this.delayMs));
    if (this.failing) throw new Error('board down');
    await this.inner.advance(key, version);
    this.advanced.push([key, version]);
  }
}

/** The registry module as an app composes it, without HTTP: its use cases and POLICY_REGISTRY_API. */
async function startRegistry(db: ServiceDatabase, versionBoard: VersionBoard | undefined, clock: Clock) {
  const ctx = await NestFactory.createApplicationContext(PolicyRegistryModule.register({ db, notifier: { nudge: () => undefined }, clock, versionBoard }), {
    logger: false,
  });
  return {
    ctx,
    create: ctx.get(CreateIntentionUseCase),
    publish: ctx.get(PublishIntentionUseCase),
    archive: ctx.get(ArchiveIntentionUseCase),
    install: ctx.get(InstallIntentCardUseCase),
    remove: ctx.get(DeleteIntentCardUseCase),
    api: ctx.get<PolicyRegistryApi>(POLICY_REGISTRY_API),
  };
}

describe('policy registry and the version board (PostgreSQL, Redis)', () => {
  let db: ServiceDatabase;
  let redis: Redis;
  const redisPrefix = `igw:test:ver:${randomUUID()}:`;
  const contexts: INestApplicationContext[] = [];
  const clock = new FixedClock(new Date('2026-03-01T10:00:00.000Z'));

  const outbox = async <T>(orgId: string) =>
    (
      await db.query<{ topic: string; key: string; envelope: EventEnvelope<T> }>(`SELECT topic, key, envelope FROM "${schema}"."outbox_events" ORDER BY seq`)
    ).filter((r) => r.key === orgId);
  const start = async (board: VersionBoard | undefined) => {
    const registry = await startRegistry(db, board, clock);
    contexts.push(registry.ctx);
    return registry;
  };

  beforeAll(async () => {
    db = openPostgresDatabase(url, schema, 8);
    await migrate(db, POLICY_REGISTRY_MIGRATIONS);
    redis = new Redis(redisUrl, { enableOfflineQueue: false, maxRetriesPerRequest: 1, lazyConnect: true });
    await redis.connect();
  });

  afterAll(async () => {
    for (const ctx of contexts) await ctx.close();
    const keys = await redis.keys(`${redisPrefix}*`);
    if (keys.length) await redis.del(...keys);
    redis?.disconnect();
    await db?.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await db?.close();
  });

  afterEach(() => jest.restoreAllMocks());

  it.each([
    ['memory', () => new MemoryVersionBoard()],
    ['Redis', () => new RedisVersionBoard(redis, { prefix: redisPrefix })],
  ])('a publish advances the %s board to the version its event carries, and activeIntentions answers that version', async (kind, newBoard) => {
    const board = newBoard();
    const r = await start(board);
    const org = `org_publish_${kind}`;
    const a = await r.create.execute(caller(org), {
      label: 'crm.lookup',
      intent_class: 'lookup',
      data_elements: [{ data_source_id: 'crm', path: 'customers.email' }],
    } as never);
    expect(await board.current(intentionsKey(org))).toBe(1);
    const b = await r.create.execute(caller(org), { label: 'crm.export', intent_class: 'export' } as never);
    await r.create.execute(caller(org), { label: 'still.draft', intent_class: 'other' } as never);
    await r.create.execute(caller(`${org}_neighbour`), { label: 'crm.lookup', intent_class: 'lookup' } as never);

    clock.advance(1000);
    await r.publish.execute(caller(org), a.id);
    const published = (await outbox<IntentionEventV1>(org)).at(-1)!.envelope;
    expect(published.type).toBe(Topics.IntentionPublished.name);
    expect(published.data.org_version).toBe(4);
    // Advanced before the use case answered: the very next read sees it.
    expect(await board.current(intentionsKey(org))).toBe(published.data.org_version);
    expect(await board.current(cardsKey(org))).toBe(0);
    expect(await r.api.activeIntentions(org)).toEqual({ version: 4, intentions: [published.data], examples: [] });

    await r.publish.execute(caller(org), b.id);
    await r.archive.execute(caller(org), a.id);
    const events = await outbox<IntentionEventV1>(org);
    const [pb, archived] = events.slice(-2).map((e) => e.envelope);
    expect([pb!.type, archived!.type]).toEqual([Topics.IntentionPublished.name, Topics.IntentionArchived.name]);
    expect(await board.current(intentionsKey(org))).toBe(archived!.data.org_version);
    expect(await r.api.activeIntentions(org)).toEqual({ version: 6, intentions: [{ ...pb!.data, org_version: 6 }], examples: [] });

    // A publish that changes nothing writes no event and leaves the board where it was.
    await r.publish.execute(caller(org), b.id);
    expect(await board.current(intentionsKey(org))).toBe(6);
    expect((await r.api.activeIntentions(org)).version).toBe(6);
    expect(await r.api.activeIntentions(`${org}_neighbour`)).toEqual({ version: 1, intentions: [], examples: [] });
    expect(await r.api.activeIntentions('org_never_seen')).toEqual({ version: 0, intentions: [], examples: [] });
  });

  it('advances the cards counter on install and delete, to the version of their events', async () => {
    const board = new MemoryVersionBoard();
    const r = await start(board);
    const org = 'org_cards';
    await r.install.execute(caller(org), { id: 'crm', ...card } as InstallIntentCardDto);
    expect(await board.current(cardsKey(org))).toBe(1);
    await r.install.execute(caller(org), { id: 'crm', ...card, name: 'renamed' } as InstallIntentCardDto);
    expect(await board.current(cardsKey(org))).toBe(2);
    await r.remove.execute(caller(org), 'crm');
    const last = (await outbox<{ org_version: number }>(org)).at(-1)!.envelope;
    expect(last.type).toBe(Topics.IntentCardDeleted.name);
    expect(await board.current(cardsKey(org))).toBe(last.data.org_version);
    expect(last.data.org_version).toBe(3);
    // Deleting what is not there changes nothing.
    await expect(r.remove.execute(caller(org), 'crm')).rejects.toMatchObject({ kind: 'not_found' });
    expect(await board.current(cardsKey(org))).toBe(3);
    expect(await board.current(intentionsKey(org))).toBe(0);
  });

  it('answers only once the board is advanced', async () => {
    const board = new ProbeBoard();
    board.delayMs = 150;
    const r = await start(board);
    const org = 'org_slow_board';
    const created = await r.create.execute(caller(org), { label: 'slow', intent_class: 'lookup' } as never);
    expect(board.advanced).toEqual([[intentionsKey(org), 1]]);
    await r.publish.execute(caller(org), created.id);
    expect(board.advanced).toEqual([
      [intentionsKey(org), 1],
      [intentionsKey(org), 2],
    ]);
  });

  it('fails closed when the board cannot be written: 503, the change committed, the next change moves the board past it', async () => {
    const board = new ProbeBoard();
    const r = await start(board);
    const org = 'org_board_down';
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    const created = await r.create.execute(caller(org), { label: 'x', intent_class: 'lookup' } as never);
    board.failing = true;
    // Told "not in force yet", never a success that a stale reader could contradict.
    await expect(r.publish.execute(caller(org), created.id)).rejects.toBeInstanceOf(DependencyUnavailableError);
    await expect(r.install.execute(caller(org), { id: 'c', ...card } as InstallIntentCardDto)).rejects.toBeInstanceOf(DependencyUnavailableError);
    expect(warn).toHaveBeenCalledTimes(2);
    expect(String(warn.mock.calls[0]![0])).toMatch(new RegExp(`version board not advanced \\(intentions:${org} → 2\\).*board down`));
    expect(String(warn.mock.calls[1]![0])).toMatch(new RegExp(`version board not advanced \\(cards:${org} → 1\\).*board down`));
    expect(await board.current(intentionsKey(org))).toBe(1);
    // Committed all the same: the owner's store is the truth, the board only a hint.
    expect(await r.api.activeIntentions(org)).toMatchObject({ version: 2, intentions: [{ id: created.id, status: 'active' }] });

    // The next change moves the board past the missed one.
    board.failing = false;
    await r.archive.execute(caller(org), created.id);
    expect(await board.current(intentionsKey(org))).toBe(3);
  });

  it('works without a board', async () => {
    const r = await start(undefined);
    const created = await r.create.execute(caller('org_no_board'), { label: 'x', intent_class: 'lookup' } as never);
    await r.publish.execute(caller('org_no_board'), created.id);
    expect((await r.api.activeIntentions('org_no_board')).version).toBe(2);
    expect(contexts.at(-1)!.get(POLICY_REGISTRY_API)).toBeInstanceOf(InProcessPolicyRegistryClient);
  });

  it('reads a consistent snapshot while changes commit concurrently: the set is exactly the one after its version', async () => {
    const board = new MemoryVersionBoard();
    const r = await start(board);
    const org = 'org_snapshots';
    const ids: string[] = [];
    for (let i = 0; i < 8; i++) ids.push((await r.create.execute(caller(org), { label: `l${i}`, intent_class: 'lookup' } as never)).id);

    const read = async () => {
      const s = await r.api.activeIntentions(org);
      return { version: s.version, ids: s.intentions.map((i) => i.id).sort() };
    };
    // Publish all and archive half, in concurrent waves that mix both.
    const publish = (id: string) => r.publish.execute(caller(org), id);
    const archive = (id: string) => r.archive.execute(caller(org), id);
    const snapshots = await snapshotsDuring(read, async () => {
      await Promise.all(ids.slice(0, 4).map(publish));
      await Promise.all([...ids.slice(4).map(publish), archive(ids[0]!), archive(ids[1]!)]);
      await Promise.all([archive(ids[5]!), archive(ids[6]!)]);
    });

    // Replaying the events in org_version order gives the active set after every version.
    const events = (await outbox<IntentionEventV1>(org)).map((e) => e.envelope.data).sort((x, y) => x.org_version - y.org_version);
    expect(events.map((e) => e.org_version)).toEqual(events.map((_, i) => i + 1));
    const activeAfter = new Map<number, string[]>([[0, []]]);
    const state = new Map<string, string>();
    for (const e of events) {
      state.set(e.id, e.status);
      activeAfter.set(
        e.org_version,
        [...state]
          .filter(([, status]) => status === 'active')
          .map(([id]) => id)
          .sort(),
      );
    }
    expect(snapshots.length).toBeGreaterThan(1);
    for (const s of snapshots) expect({ version: s.version, ids: s.ids }).toEqual({ version: s.version, ids: activeAfter.get(s.version) });
    const final = await r.api.activeIntentions(org);
    expect(final.version).toBe(events.length);
    expect(await board.current(intentionsKey(org))).toBe(events.length);
    expect(final.intentions.map((i) => i.id).sort()).toEqual([ids[2], ids[3], ids[4], ids[7]].sort());
  });

  it('exposes the snapshot use case directly too', async () => {
    const r = await start(undefined);
    expect(await r.ctx.get(GetActiveIntentionsUseCase).execute('org_nobody')).toEqual({ version: 0, intentions: [], examples: [] });
  });
});
