import { FixedClock } from '@igw/kernel';
import { prismaSpecWorld, testSchemaName, readOutbox } from '@igw/persistence/testing';
import { Topics, type InstallIntentCardDto, type IntentCardEventV1 } from '@igw/contracts';
import { snapshotsDuring } from '../../application/testing/concurrent-snapshots';
import { intentCardUseCases, policyWriter, SPEC_T0 } from '../../application/testing/registry-world.fake';
import { POLICY_REGISTRY_MIGRATIONS } from '../../policy-registry.module';
import { PrismaIntentCardRepository } from './prisma-intent-card.repository';
import { createRegistryPrisma } from './registry-prisma.client';

const schema = testSchemaName('registry');

const card = (over: Partial<InstallIntentCardDto> = {}): InstallIntentCardDto =>
  ({
    name: 'CRM assistant',
    allowed_scope: { operations: ['crm.read', 'crm.search*'], resources: ['crm://customers/*'], forbidden_operations: ['crm.delete*'] },
    audiences: ['crm-api'],
    rules: [
      { id: 'bulk', when: 'action.operation == "crm.export" && size(action.arguments) > 2', decision: { kind: 'approval' } },
      { id: 'redact', when: 'context.user in ["a","b"]', decision: { kind: 'allow_with_redact', redact_fields: ['email', 'phone'] } },
    ],
    ...over,
  }) as InstallIntentCardDto;

describe('PrismaIntentCardRepository (PostgreSQL)', () => {
  const w = prismaSpecWorld(schema, POLICY_REGISTRY_MIGRATIONS, 5, createRegistryPrisma, (prisma, notifier) =>
    intentCardUseCases(new PrismaIntentCardRepository(prisma, schema, notifier), new FixedClock(SPEC_T0)),
  );

  const outbox = (orgId: string) => readOutbox<IntentCardEventV1>(w.db, orgId);

  it('installs, then replaces the same id: version + 1, created_at kept, one event each with the org version', async () => {
    const org = 'org_replace';
    const first = await w.install.execute(policyWriter(org), card({ id: 'crm' }));
    expect(first).toMatchObject({ created: true, card: { id: 'crm', version: 1, max_ttl_seconds: 3600, shadow: false } });
    w.clock.advance(60_000);
    const second = await w.install.execute(policyWriter(org), card({ id: 'crm', name: 'CRM v2', rules: [] }));
    expect(second.created).toBe(false);
    expect(second.card).toMatchObject({ name: 'CRM v2', version: 2, rules: [], created_at: first.card.created_at });
    expect(second.card.updated_at).not.toBe(first.card.updated_at);
    expect(await w.repo.findById(org, 'crm')).toMatchObject({ name: 'CRM v2', version: 2 });

    const events = await outbox(org);
    expect(events.map((e) => [e.topic, e.envelope.data.version, e.envelope.data.org_version])).toEqual([
      [Topics.IntentCardInstalled.name, 1, 1],
      [Topics.IntentCardInstalled.name, 2, 2],
    ]);
    expect(events[0]!.envelope.data.rules).toEqual(card().rules);
  });

  it('keeps card ids per org: the same id in two orgs are two cards', async () => {
    await w.install.execute(policyWriter('org_x'), card({ id: 'shared', name: 'X' }));
    await w.install.execute(policyWriter('org_y'), card({ id: 'shared', name: 'Y' }));
    expect((await w.repo.findById('org_x', 'shared'))!.name).toBe('X');
    expect((await w.repo.findById('org_y', 'shared'))!.name).toBe('Y');
    expect(await w.repo.findById('org_z', 'shared')).toBeNull();
  });

  it('deletes with an intent_card.deleted event; a missing or foreign card is 404 and writes nothing', async () => {
    const org = 'org_delete';
    await w.install.execute(policyWriter(org), card({ id: 'gone' }));
    await expect(w.remove.execute(policyWriter('org_other'), 'gone')).rejects.toMatchObject({ kind: 'not_found' });
    await w.remove.execute(policyWriter(org), 'gone');
    expect(await w.repo.findById(org, 'gone')).toBeNull();
    await expect(w.remove.execute(policyWriter(org), 'gone')).rejects.toMatchObject({ kind: 'not_found' });
    const events = await outbox(org);
    expect(events.map((e) => e.topic)).toEqual([Topics.IntentCardInstalled.name, Topics.IntentCardDeleted.name]);
    expect(events[1]!.envelope.data).toMatchObject({ id: 'gone', deleted: true, version: 2, org_version: 2 });
    expect(await outbox('org_other')).toEqual([]);
  });

  it('an id removed and installed again is a new card that goes on from the removal: no version names two contents', async () => {
    const org = 'org_again';
    await w.install.execute(policyWriter(org), card({ id: 'again' }));
    await w.install.execute(policyWriter(org), card({ id: 'again', name: 'v2' }));
    await w.remove.execute(policyWriter(org), 'again');
    w.clock.advance(60_000);
    const back = await w.install.execute(policyWriter(org), card({ id: 'again', name: 'back', rules: [] }));
    expect(back).toMatchObject({ created: true, card: { id: 'again', name: 'back', version: 4 } });
    expect(back.card.created_at).not.toBe(SPEC_T0.toISOString());
    await w.remove.execute(policyWriter(org), 'again');
    expect((await w.install.execute(policyWriter(org), card({ id: 'again' }))).card.version).toBe(6);
    // Per org: the same id elsewhere starts afresh.
    expect((await w.install.execute(policyWriter('org_again_other'), card({ id: 'again' }))).card.version).toBe(1);
    const events = await outbox(org);
    expect(events.map((e) => [e.topic, e.envelope.data.version])).toEqual([
      [Topics.IntentCardInstalled.name, 1],
      [Topics.IntentCardInstalled.name, 2],
      [Topics.IntentCardDeleted.name, 3],
      [Topics.IntentCardInstalled.name, 4],
      [Topics.IntentCardDeleted.name, 5],
      [Topics.IntentCardInstalled.name, 6],
    ]);
  });

  it('lets concurrent installs of one new id all succeed, one after the other', async () => {
    const org = 'org_race';
    const results = await Promise.all(Array.from({ length: 4 }, (_, i) => w.install.execute(policyWriter(org), card({ id: 'hot', name: `v${i}` }))));
    expect(results.filter((r) => r.created)).toHaveLength(1);
    expect(results.map((r) => r.card.version).sort()).toEqual([1, 2, 3, 4]);
    expect((await outbox(org)).map((e) => e.envelope.data.org_version)).toEqual([1, 2, 3, 4]);
  });

  it("snapshots the org's installed cards with the cards counter: deleted cards and other orgs' cards are absent", async () => {
    const org = 'org_snap';
    expect(await w.repo.snapshot(org)).toEqual({ version: 0, cards: [] });
    const a = await w.install.execute(policyWriter(org), card({ id: 'a' }));
    w.clock.advance(1000);
    await w.install.execute(policyWriter(org), card({ id: 'b' }));
    w.clock.advance(1000);
    const c = await w.install.execute(policyWriter(org), card({ id: 'c' }));
    w.clock.advance(1000);
    const a2 = await w.install.execute(policyWriter(org), card({ id: 'a', name: 'A v2' }));
    await w.remove.execute(policyWriter(org), 'b');
    await w.install.execute(policyWriter('org_snap_neighbour'), card({ id: 'z' }));
    await w.install.execute(policyWriter('org_snap_neighbour'), card({ id: 'b' }));

    // 4 installs + 1 delete: the version is the number of card changes of this org.
    const snap = await w.snapshot.execute(org);
    expect(snap).toEqual({
      version: 5,
      cards: [
        { ...c.card, org_version: 5 },
        { ...a2.card, org_version: 5 },
      ],
    });
    expect(a2.card.created_at).toBe(a.card.created_at);
    expect(snap.cards.some((x) => 'deleted' in x)).toBe(false);
    // The version is the one the last event of the org carries.
    expect((await outbox(org)).at(-1)!.envelope.data.org_version).toBe(5);
    expect((await w.snapshot.execute('org_snap_neighbour')).cards.map((x) => x.id).sort()).toEqual(['b', 'z']);
    expect((await w.snapshot.execute('org_snap_neighbour')).version).toBe(2);
  });

  it('reads a consistent snapshot while changes commit concurrently: the set is exactly the one after its version', async () => {
    const org = 'org_snap_race';
    const ids = ['c0', 'c1', 'c2', 'c3', 'c4', 'c5', 'c6', 'c7'];
    const read = async () => {
      const s = await w.repo.snapshot(org);
      return { version: s.version, ids: s.cards.map((x) => x.id).sort() };
    };
    const snapshots = await snapshotsDuring(read, async () => {
      await Promise.all(ids.map((id) => w.install.execute(policyWriter(org), card({ id }))));
      await Promise.all([
        w.remove.execute(policyWriter(org), 'c0'),
        w.remove.execute(policyWriter(org), 'c1'),
        w.install.execute(policyWriter(org), card({ id: 'c2', name: 'again' })),
        w.install.execute(policyWriter(org), card({ id: 'c8' })),
      ]);
      await Promise.all([w.remove.execute(policyWriter(org), 'c5'), w.remove.execute(policyWriter(org), 'c8')]);
    });

    // Replaying the events in org_version order gives the installed set after every version.
    const events = (await outbox(org)).map((e) => e.envelope.data).sort((x, y) => x.org_version - y.org_version);
    expect(events.map((e) => e.org_version)).toEqual(events.map((_, i) => i + 1));
    const installedAfter = new Map<number, string[]>([[0, []]]);
    const state = new Set<string>();
    for (const e of events) {
      if (e.deleted) state.delete(e.id);
      else state.add(e.id);
      installedAfter.set(e.org_version, [...state].sort());
    }
    expect(snapshots.length).toBeGreaterThan(1);
    for (const s of snapshots) expect(s).toEqual({ version: s.version, ids: installedAfter.get(s.version) });
    const final = await w.repo.snapshot(org);
    expect(final.version).toBe(events.length);
    expect(final.cards.map((x) => x.id).sort()).toEqual(['c2', 'c3', 'c4', 'c6', 'c7']);
  });

  it('pages newest first with a cursor', async () => {
    const org = 'org_pages';
    for (const id of ['a', 'b', 'c', 'd', 'e']) {
      await w.install.execute(policyWriter(org), card({ id }));
      w.clock.advance(1000);
    }
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await w.list.execute(policyWriter(org), { limit: '2', cursor });
      seen.push(...page.data.map((c) => c.id));
      cursor = page.next_cursor ?? undefined;
    } while (cursor);
    expect(seen).toEqual(['e', 'd', 'c', 'b', 'a']);
  });
});
