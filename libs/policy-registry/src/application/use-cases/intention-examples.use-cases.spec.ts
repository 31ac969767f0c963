import {
  EXAMPLE_LIMITS,
  Topics,
  type CreateIntentionDto,
  type CreateIntentionExampleDto,
  type IntentionExampleEventV1,
  type TeachFromApprovalDto,
} from '@igw/contracts';
import type { Caller } from '@igw/kernel';
import { intentionExampleWorld } from '../testing/registry-world.fake';

const acme: Caller = { orgId: 'org_acme', keyId: 'key_1', scope: 'policy_write' };
const other: Caller = { orgId: 'org_other', keyId: 'key_2', scope: 'admin' };
const body = (label: string): CreateIntentionDto => ({ label, intent_class: 'lookup' }) as CreateIntentionDto;
const example = (covered = true, name = 'crm.get'): CreateIntentionExampleDto => ({ tool_call: { name, arguments: { id: 7 } }, covered });

async function setup() {
  const s = intentionExampleWorld();
  const lookup = await s.create.execute(acme, body('crm.lookup'));
  await s.publish.execute(acme, lookup.id);
  const exporting = await s.create.execute(acme, body('crm.export'));
  await s.publish.execute(acme, exporting.id);
  s.repo.outbox.length = 0;
  return { ...s, lookup, exporting };
}
const events = (s: Awaited<ReturnType<typeof setup>>) => s.repo.outbox.map((e) => ({ type: e.type, data: e.data as IntentionExampleEventV1 }));
const teach = (approvalId: string, ...examples: [string, boolean][]): TeachFromApprovalDto => ({
  approval_id: approvalId,
  tool_call: { name: 'crm.get', arguments: { id: 1 } },
  examples: examples.map(([intention_label, covered]) => ({ intention_label, covered })),
});

describe('intention example use cases', () => {
  it('add a manual example: 201 view, intention_example.added with the next org_version, in the active snapshot', async () => {
    const s = await setup();
    s.clock.advance(1000);
    const added = await s.addExample.execute(acme, s.lookup.id, example());
    expect(added).toEqual({
      id: expect.stringMatching(/^iex_[0-9a-f]{32}$/),
      intention_id: s.lookup.id,
      tool_call: { name: 'crm.get', arguments: { id: 7 } },
      covered: true,
      source: 'manual',
      approval_id: null,
      created_at: '2026-03-01T10:00:01.000Z',
    });
    expect(events(s)).toEqual([{ type: Topics.IntentionExampleAdded.name, data: { ...added, org_version: 5 } }]);
    const snapshot = await s.active.execute('org_acme');
    expect(snapshot).toMatchObject({ version: 5, examples: [{ ...added, org_version: 5 }] });
  });

  it('list newest first with a cursor; remove with intention_example.removed; 404 for another org or intention', async () => {
    const s = await setup();
    const ids: string[] = [];
    for (const name of ['a', 'b', 'c']) {
      ids.push((await s.addExample.execute(acme, s.lookup.id, example(true, name))).id);
      s.clock.advance(1000);
    }
    const first = await s.listExamples.execute(acme, s.lookup.id, { limit: '2' });
    expect(first.data.map((e) => e.tool_call.name)).toEqual(['c', 'b']);
    const second = await s.listExamples.execute(acme, s.lookup.id, { limit: '2', cursor: first.next_cursor ?? undefined });
    expect(second).toMatchObject({ next_cursor: null, data: [{ tool_call: { name: 'a' } }] });
    await expect(s.listExamples.execute(other, s.lookup.id, {})).rejects.toMatchObject({ kind: 'not_found' });
    await expect(s.addExample.execute(other, s.lookup.id, example())).rejects.toMatchObject({ kind: 'not_found' });
    await expect(s.removeExample.execute(other, s.lookup.id, ids[0] ?? '')).rejects.toMatchObject({ kind: 'not_found' });
    await expect(s.removeExample.execute(acme, s.exporting.id, ids[0] ?? '')).rejects.toMatchObject({ kind: 'not_found' });
    await s.removeExample.execute(acme, s.lookup.id, ids[0] ?? '');
    await expect(s.removeExample.execute(acme, s.lookup.id, ids[0] ?? '')).rejects.toMatchObject({ kind: 'not_found' });
    expect(events(s).map((e) => [e.type, e.data.org_version, e.data.removed ?? false])).toEqual([
      [Topics.IntentionExampleAdded.name, 5, false],
      [Topics.IntentionExampleAdded.name, 6, false],
      [Topics.IntentionExampleAdded.name, 7, false],
      [Topics.IntentionExampleRemoved.name, 8, true],
    ]);
    expect((await s.active.execute('org_acme')).examples?.map((e) => e.tool_call.name)).toEqual(['c', 'b']);
  });

  it('drafts take examples (in the snapshot already, so a reader applying the publish has them); archived ones do not; the limit holds', async () => {
    const s = await setup();
    const draft = await s.create.execute(acme, body('crm.draft'));
    await s.addExample.execute(acme, draft.id, example());
    expect((await s.active.execute('org_acme')).examples).toHaveLength(1);
    await s.publish.execute(acme, draft.id);
    expect((await s.active.execute('org_acme')).examples).toHaveLength(1);
    await s.archive.execute(acme, draft.id);
    expect((await s.active.execute('org_acme')).examples).toEqual([]);
    await expect(s.addExample.execute(acme, draft.id, example())).rejects.toMatchObject({ kind: 'conflict', code: 'invalid_transition' });
    for (let i = 0; i < EXAMPLE_LIMITS.perIntention; i++)
      s.repo.examples.set(`iex_${i}`, { ...[...s.repo.examples.values()][0]!, id: `iex_${i}`, intentionId: s.lookup.id });
    await expect(s.addExample.execute(acme, s.lookup.id, example())).rejects.toMatchObject({ kind: 'conflict', code: 'example_limit' });
  });

  it('refuse an example over EXAMPLE_LIMITS.bytes with a 400 naming tool_call', async () => {
    const s = await setup();
    const big = { tool_call: { name: 'crm.get', arguments: { blob: 'x'.repeat(EXAMPLE_LIMITS.bytes) } }, covered: true };
    await expect(s.addExample.execute(acme, s.lookup.id, big)).rejects.toMatchObject({ code: 'invalid_request', extra: { details: [{ path: 'tool_call' }] } });
    expect(s.repo.outbox).toEqual([]);
  });

  it('teach: every example or none, idempotent on approval_id, one event and org_version each', async () => {
    const s = await setup();
    const taught = await s.teach.execute('org_acme', teach('apr_1', ['crm.export', true], ['crm.lookup', false]));
    expect(taught.examples.map((e) => [e.intention_id, e.covered, e.source, e.approval_id])).toEqual([
      [s.exporting.id, true, 'approval', 'apr_1'],
      [s.lookup.id, false, 'approval', 'apr_1'],
    ]);
    expect(await s.teach.execute('org_acme', teach('apr_1', ['crm.export', true], ['crm.lookup', false]))).toEqual(taught);
    expect(events(s).map((e) => [e.type, e.data.org_version])).toEqual([
      [Topics.IntentionExampleAdded.name, 5],
      [Topics.IntentionExampleAdded.name, 6],
    ]);
    // A label of no active intention: nothing is stored, not even the valid one.
    const draft = await s.create.execute(acme, body('crm.draft'));
    for (const label of ['crm.unknown', 'crm.draft']) {
      await expect(s.teach.execute('org_acme', teach('apr_2', ['crm.lookup', true], [label, false]))).rejects.toMatchObject({
        kind: 'not_found',
        code: 'intent_not_found',
        extra: { details: [{ path: 'examples[1].intention_label' }] },
      });
    }
    await expect(s.teach.execute('org_other', teach('apr_3', ['crm.lookup', true]))).rejects.toMatchObject({ code: 'intent_not_found' });
    expect((await s.listExamples.execute(acme, s.lookup.id, {})).data).toHaveLength(1);
    expect(draft.status).toBe('draft');
  });

  it('forgetTaught removes what one approval taught, with removed events; again is a no-op', async () => {
    const s = await setup();
    const manual = await s.addExample.execute(acme, s.lookup.id, example());
    await s.teach.execute('org_acme', teach('apr_1', ['crm.lookup', true], ['crm.export', false]));
    await s.forgetTaught.execute('org_other', 'apr_1');
    await s.forgetTaught.execute('org_acme', 'apr_1');
    await s.forgetTaught.execute('org_acme', 'apr_1');
    expect((await s.active.execute('org_acme')).examples?.map((e) => e.id)).toEqual([manual.id]);
    expect(events(s).map((e) => [e.type, e.data.org_version])).toEqual([
      [Topics.IntentionExampleAdded.name, 5],
      [Topics.IntentionExampleAdded.name, 6],
      [Topics.IntentionExampleAdded.name, 7],
      [Topics.IntentionExampleRemoved.name, 8],
      [Topics.IntentionExampleRemoved.name, 9],
    ]);
  });
});
