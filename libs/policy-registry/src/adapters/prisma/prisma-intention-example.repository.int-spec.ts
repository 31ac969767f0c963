import { FixedClock } from '@igw/kernel';
import { prismaSpecWorld, testSchemaName, readOutbox } from '@igw/persistence/testing';
import { EXAMPLE_LIMITS, Topics, type IntentionEventV1, type IntentionExampleEventV1, type TeachFromApprovalDto } from '@igw/contracts';
import { snapshotsDuring } from '../../application/testing/concurrent-snapshots';
import { intentionExampleUseCases, policyWriter, SPEC_T0 } from '../../application/testing/registry-world.fake';
import { POLICY_REGISTRY_MIGRATIONS } from '../../policy-registry.module';
import { PrismaIntentionExampleRepository } from './prisma-intention-example.repository';
import { PrismaIntentionRepository } from './prisma-intention.repository';
import { createRegistryPrisma } from './registry-prisma.client';

const schema = testSchemaName('registry_examples');

describe('PrismaIntentionExampleRepository (PostgreSQL)', () => {
  const w = prismaSpecWorld(schema, POLICY_REGISTRY_MIGRATIONS, 8, createRegistryPrisma, (prisma, notifier) =>
    intentionExampleUseCases(
      new PrismaIntentionRepository(prisma, schema, notifier),
      new PrismaIntentionExampleRepository(prisma, schema, notifier),
      new FixedClock(SPEC_T0),
    ),
  );

  const outbox = (orgId: string) => readOutbox<IntentionEventV1 | IntentionExampleEventV1>(w.db, orgId);
  const activeIntention = async (org: string, label: string, tools?: string[]) => {
    const created = await w.create.execute(policyWriter(org), { label, intent_class: 'lookup', ...(tools ? { tools } : {}) } as never);
    return w.publish.execute(policyWriter(org), created.id);
  };
  const teachBody = (approvalId: string, ...examples: [string, boolean][]): TeachFromApprovalDto => ({
    approval_id: approvalId,
    tool_call: { name: 'crm.get', arguments: { id: 1, nested: { deep: ['x'] } } },
    conversation_context: [{ role: 'user', content: 'Look Ada up.' }],
    examples: examples.map(([intention_label, covered]) => ({ intention_label, covered })),
  });

  it('stores tools, and PATCH writes the change, its event and the counter together', async () => {
    const org = 'org_tools';
    const intention = await activeIntention(org, 'crm.lookup', ['crm.get', 'crm.search_*', 'crm.get']);
    expect(intention.tools).toEqual(['crm.get', 'crm.search_*']);
    const updated = await w.update.execute(policyWriter(org), intention.id, { tools: ['crm.**'], description: 'Contacts.' });
    expect(await w.get.execute(policyWriter(org), intention.id)).toEqual(updated);
    expect(updated).toMatchObject({ tools: ['crm.**'], description: 'Contacts.', version: 3 });
    const rows = await outbox(org);
    expect(rows.map((r) => [r.topic, r.envelope.data.org_version, (r.envelope.data as IntentionEventV1).tools])).toEqual([
      [Topics.IntentionCreated.name, 1, ['crm.get', 'crm.search_*']],
      [Topics.IntentionPublished.name, 2, ['crm.get', 'crm.search_*']],
      [Topics.IntentionUpdated.name, 3, ['crm.**']],
    ]);
    expect((await w.active.execute(org)).intentions).toEqual([{ ...updated, org_version: 3 }]);
  });

  it('adds, lists and removes examples with their events on the intentions counter; scoped by org and intention', async () => {
    const org = 'org_examples';
    const intention = await activeIntention(org, 'crm.lookup');
    const before = w.notifier.nudges;
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const added = await w.addExample.execute(policyWriter(org), intention.id, {
        tool_call: { name: `crm.get_${i}`, arguments: { id: i } },
        conversation_context: i === 0 ? [{ role: 'user', content: 'hi' }] : undefined,
        covered: i !== 2,
      });
      ids.push(added.id);
      if (i === 0) expect(added).toMatchObject({ source: 'manual', approval_id: null, conversation_context: [{ role: 'user', content: 'hi' }] });
      w.clock.advance(1000);
    }
    const page = await w.listExamples.execute(policyWriter(org), intention.id, { limit: '2' });
    expect(page.data.map((e) => e.id)).toEqual([ids[2], ids[1]]);
    const rest = await w.listExamples.execute(policyWriter(org), intention.id, { limit: '2', cursor: page.next_cursor ?? undefined });
    expect(rest).toMatchObject({ next_cursor: null, data: [{ id: ids[0], tool_call: { name: 'crm.get_0', arguments: { id: 0 } } }] });

    await expect(w.listExamples.execute(policyWriter('org_elsewhere'), intention.id, {})).rejects.toMatchObject({ kind: 'not_found' });
    await expect(w.removeExample.execute(policyWriter('org_elsewhere'), intention.id, ids[0]!)).rejects.toMatchObject({ kind: 'not_found' });
    const build = () => {
      throw new Error('built for another org');
    };
    expect(await w.examples.add('org_elsewhere', intention.id, build, () => [])).toBeNull();
    await w.removeExample.execute(policyWriter(org), intention.id, ids[1]!);

    const rows = await outbox(org);
    expect(rows.slice(2).map((r) => [r.topic, r.envelope.data.org_version, (r.envelope.data as IntentionExampleEventV1).removed ?? false])).toEqual([
      [Topics.IntentionExampleAdded.name, 3, false],
      [Topics.IntentionExampleAdded.name, 4, false],
      [Topics.IntentionExampleAdded.name, 5, false],
      [Topics.IntentionExampleRemoved.name, 6, true],
    ]);
    expect(w.notifier.nudges - before).toBe(4);
    const snapshot = await w.active.execute(org);
    expect(snapshot.version).toBe(6);
    expect(snapshot.examples?.map((e) => [e.id, e.org_version])).toEqual([
      [ids[2], 6],
      [ids[0], 6],
    ]);
  });

  it("the snapshot holds drafts' examples too (a reader then applying the publish event has them), never archived ones'", async () => {
    const org = 'org_example_drafts';
    const draft = await w.create.execute(policyWriter(org), { label: 'crm.draft', intent_class: 'lookup' } as never);
    const gone = await activeIntention(org, 'crm.gone');
    const kept = await w.addExample.execute(policyWriter(org), draft.id, { tool_call: { name: 'crm.get' }, covered: false });
    await w.addExample.execute(policyWriter(org), gone.id, { tool_call: { name: 'crm.get' }, covered: true });
    await w.archive.execute(policyWriter(org), gone.id);
    const snapshot = await w.active.execute(org);
    expect(snapshot.intentions).toEqual([]);
    expect(snapshot.examples?.map((e) => e.id)).toEqual([kept.id]);
  });

  it('refuses examples of archived intentions and beyond the limit, writing nothing', async () => {
    const org = 'org_refusals';
    const intention = await activeIntention(org, 'crm.lookup');
    await w.db.query(
      `INSERT INTO "${schema}"."intention_examples" (id, org_id, intention_id, tool_call, covered, source, created_at)
       SELECT 'iex_fill_' || g, $1, $2, '{"name":"t"}', true, 'manual', now() FROM generate_series(1, $3::int) g`,
      [org, intention.id, EXAMPLE_LIMITS.perIntention],
    );
    const example = { tool_call: { name: 'crm.get' }, covered: true };
    await expect(w.addExample.execute(policyWriter(org), intention.id, example)).rejects.toMatchObject({ code: 'example_limit' });
    await w.db.query(`DELETE FROM "${schema}"."intention_examples" WHERE org_id = $1`, [org]);
    await w.archive.execute(policyWriter(org), intention.id);
    await expect(w.addExample.execute(policyWriter(org), intention.id, example)).rejects.toMatchObject({ code: 'invalid_transition' });
    expect((await outbox(org)).map((r) => r.topic)).toEqual([Topics.IntentionCreated.name, Topics.IntentionPublished.name, Topics.IntentionArchived.name]);
  });

  it('teaches every example or none, idempotently on the approval, also when the same approval is taught concurrently', async () => {
    const org = 'org_teach';
    const lookup = await activeIntention(org, 'crm.lookup');
    const exporting = await activeIntention(org, 'crm.export');
    const body = teachBody('apr_1', ['crm.export', true], ['crm.lookup', false]);
    const results = await Promise.all(Array.from({ length: 4 }, () => w.teach.execute(org, body)));
    for (const r of results) expect(r).toEqual(results[0]);
    expect(results[0]!.examples.map((e) => [e.intention_id, e.covered, e.source, e.approval_id])).toEqual([
      [exporting.id, true, 'approval', 'apr_1'],
      [lookup.id, false, 'approval', 'apr_1'],
    ]);
    expect(results[0]!.examples[0]).toMatchObject({ tool_call: body.tool_call, conversation_context: body.conversation_context });
    const added = (await outbox(org)).filter((r) => r.topic === Topics.IntentionExampleAdded.name);
    expect(added.map((r) => r.envelope.data.org_version)).toEqual([5, 6]);

    // One unknown label: nothing of the request is stored.
    await expect(w.teach.execute(org, teachBody('apr_2', ['crm.lookup', true], ['crm.nope', false]))).rejects.toMatchObject({
      code: 'intent_not_found',
      extra: { details: [{ path: 'examples[1].intention_label' }] },
    });
    expect((await w.listExamples.execute(policyWriter(org), lookup.id, {})).data).toHaveLength(1);

    await w.forgetTaught.execute(org, 'apr_1');
    await w.forgetTaught.execute(org, 'apr_1');
    expect((await w.active.execute(org)).examples).toEqual([]);
    const removed = (await outbox(org)).filter((r) => r.topic === Topics.IntentionExampleRemoved.name);
    expect(removed.map((r) => r.envelope.data.org_version)).toEqual([7, 8]);
    // Forgotten, the approval may be taught again.
    expect((await w.teach.execute(org, teachBody('apr_1', ['crm.lookup', true]))).examples).toHaveLength(1);
  });

  it('removes an example once when removals race: one 204, one 404, one event', async () => {
    const org = 'org_remove_race';
    const intention = await activeIntention(org, 'crm.lookup');
    const added = await w.addExample.execute(policyWriter(org), intention.id, { tool_call: { name: 'crm.get' }, covered: true });
    const outcomes = await Promise.allSettled(Array.from({ length: 4 }, () => w.removeExample.execute(policyWriter(org), intention.id, added.id)));
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    for (const o of outcomes) if (o.status === 'rejected') expect(o.reason).toMatchObject({ kind: 'not_found' });
    await w.teach.execute(org, teachBody('apr_race', ['crm.lookup', true]));
    await Promise.all(Array.from({ length: 4 }, () => w.forgetTaught.execute(org, 'apr_race')));
    const topics = (await outbox(org)).map((r) => r.topic).filter((t) => t === Topics.IntentionExampleRemoved.name);
    expect(topics).toHaveLength(2);
    expect((await w.active.execute(org)).examples).toEqual([]);
  });

  it('reads a consistent snapshot while examples change concurrently: exactly the examples after its version', async () => {
    const org = 'org_example_snapshots';
    const intentions = [await activeIntention(org, 'a'), await activeIntention(org, 'b')];
    const read = async () => {
      const s = await w.active.execute(org);
      return { version: s.version, ids: (s.examples ?? []).map((e) => e.id).sort() };
    };
    const add = (i: number) => w.addExample.execute(policyWriter(org), intentions[i % 2]!.id, { tool_call: { name: `t.${i}` }, covered: true });
    const snapshots = await snapshotsDuring(read, async () => {
      const first = await Promise.all([0, 1, 2, 3, 4, 5].map(add));
      await Promise.all([
        ...[6, 7, 8].map(add),
        w.removeExample.execute(policyWriter(org), intentions[0]!.id, first[0]!.id),
        w.teach.execute(org, teachBody('apr_snap', ['a', true], ['b', false])),
      ]);
    });

    // Replaying the events in org_version order gives the examples after every version.
    const events = (await outbox(org)).map((r) => ({ topic: r.topic, data: r.envelope.data })).sort((x, y) => x.data.org_version - y.data.org_version);
    expect(events.map((e) => e.data.org_version)).toEqual(events.map((_, i) => i + 1));
    const after = new Map<number, string[]>();
    const current = new Set<string>();
    for (const e of events) {
      if (e.topic === Topics.IntentionExampleAdded.name) current.add(e.data.id);
      if (e.topic === Topics.IntentionExampleRemoved.name) current.delete(e.data.id);
      after.set(e.data.org_version, [...current].sort());
    }
    expect(snapshots.length).toBeGreaterThan(1);
    for (const s of snapshots) expect(s).toEqual({ version: s.version, ids: after.get(s.version) });
    expect(await read()).toEqual({ version: events.length, ids: after.get(events.length) });
  });
});
