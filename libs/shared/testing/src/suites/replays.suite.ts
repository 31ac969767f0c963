import type { Client } from '../e2e/http-client';
import { crmCard, dispenseMandate, installCard } from '../e2e/mandate-fixtures';
import { operatorAndAgent, publishIntention } from '../e2e/org-keys';
import type { TestSystem } from '../e2e/system';
import { LEDGER_INTENTION, ledgerCall, PAYOUTS_INTENTION } from '../e2e/uncertain-fixtures';

/**
 * What-if replay of draft intentions (DESIGN 6.16) over HTTP, the same in every mode: recorded
 * calls flip under a draft (allowed → denied by an archive, pending_approval → allowed by a
 * binding), nothing is recorded or approved, live decisions never see the draft, and the edge
 * refuses what the real writes refuse. Each test uses its own org.
 */
export function describeReplays(mode: string, start: () => Promise<TestSystem>) {
  describe(`what-if replay (${mode})`, () => {
    let sys: TestSystem;

    beforeAll(async () => {
      sys = await start();
    });

    afterAll(async () => {
      await sys?.stop();
    });

    /** A fresh org: an operator (policy_write) and an agent (read_only, evaluates). */
    const org = (name: string) => operatorAndAgent(sys, name);

    const CONTACTS = { label: 'crm.read_contacts', description: 'Read CRM contacts.', tools: ['crm.get_contact'] };
    const lookup = (n: number) => ({ tool_call: { name: 'crm.get_contact', arguments: { contact_id: `c_${n}` } }, user_id: 'u_1' });
    const UNSURE = { ...ledgerCall({ entry_id: 'LE-1001' }), user_id: 'u_fin' };

    /** An org with two allowed calls and one held (uncertain) call on record. */
    async function recorded(name: string) {
      const o = await org(name);
      const contacts = await publishIntention(o.operator, CONTACTS);
      const ledger = await publishIntention(o.operator, LEDGER_INTENTION);
      await publishIntention(o.operator, PAYOUTS_INTENTION);
      for (const n of [1, 2]) expect((await o.agent.post('/v1/intent/evaluate', lookup(n))).body.outcome).toBe('allowed');
      expect((await o.agent.post('/v1/intent/evaluate', UNSURE)).body.outcome).toBe('pending_approval');
      const draft = [
        { action: 'archive', id: contacts },
        { action: 'update', id: ledger, intention: { tools: ['erp.fetch_ledger_entry'] } },
      ];
      return { ...o, contacts, ledger, draft };
    }

    const history = async (c: Client) => (await c.get('/v1/intent/history?limit=200')).body.data as { id: string; outcome: string }[];
    const pending = async (c: Client) => (await c.get('/v1/approvals?status=pending')).body.data as unknown[];

    it('flips allowed -> denied (archive) and pending_approval -> allowed (binding) on recorded calls, recording nothing', async () => {
      const { operator, agent, draft } = await recorded('replay-flips');
      const before = await history(agent);
      const held = await pending(operator);

      const res = await operator.post('/v1/replays', { kind: 'intentions', changes: draft });
      expect(res.status).toBe(200);
      expect(res.body.replayed).toBe(3);
      expect(res.body.transitions).toEqual(
        expect.arrayContaining([
          { from: 'allowed', to: 'denied', count: 2 },
          { from: 'pending_approval', to: 'allowed', count: 1 },
        ]),
      );
      expect(res.body.transitions).toHaveLength(2);
      expect(res.body.next_cursor).toBeNull();
      const byTool = Object.fromEntries((res.body.calls as { tool_name: string; before: unknown; after: unknown }[]).map((c) => [c.tool_name, c]));
      expect(byTool['crm.get_contact']).toMatchObject({
        before: { outcome: 'allowed', intent_label: 'crm.read_contacts' },
        after: { outcome: 'denied', intent_label: 'ambient' },
      });
      expect(byTool['erp.fetch_ledger_entry']).toMatchObject({
        before: { outcome: 'pending_approval', intent_label: LEDGER_INTENTION.label },
        after: { outcome: 'allowed', intent_label: LEDGER_INTENTION.label },
      });
      expect((res.body.calls as { id: string }[]).map((c) => c.id).sort()).toEqual(before.map((e) => e.id).sort());

      // Nothing recorded, nothing asked of a human, and the live policy is the published one.
      expect(await history(agent)).toEqual(before);
      expect(await pending(operator)).toHaveLength(held.length);
      expect((await agent.post('/v1/intent/evaluate', lookup(3))).body.outcome).toBe('allowed');
      expect((await agent.post('/v1/intent/evaluate', UNSURE)).body.outcome).toBe('pending_approval');
      // The same draft replayed again: four more calls on record now, the same kinds of change.
      expect((await operator.post('/v1/replays', { kind: 'intentions', changes: draft })).body.replayed).toBe(5);
    });

    it('a draft never leaks into live decisions: evaluations during replays decide as published', async () => {
      const { operator, agent, draft } = await recorded('replay-live');
      const live = Array.from({ length: 12 }, (_, n) => agent.post('/v1/intent/evaluate', lookup(10 + n)));
      const replays = Array.from({ length: 3 }, () => operator.post('/v1/replays', { kind: 'intentions', changes: draft }));
      const [decisions, answers] = await Promise.all([Promise.all(live), Promise.all(replays)]);
      expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
      expect(decisions.map((d) => [d.status, d.body.outcome ?? d.body.message, d.body.intent_label])).toEqual(
        decisions.map(() => [200, 'allowed', 'crm.read_contacts']),
      );
      expect((await agent.post('/v1/intent/evaluate', UNSURE)).body.outcome).toBe('pending_approval');
    });

    it("needs policy_write, never replays another org's calls, and refuses what the real writes refuse", async () => {
      const { operator, agent, contacts } = await recorded('replay-edge');
      const stranger = await org('replay-stranger');
      const archive = { kind: 'intentions', changes: [{ action: 'archive', id: contacts }] };

      const readOnly = await agent.post('/v1/replays', archive);
      expect([readOnly.status, readOnly.body.code]).toEqual([403, 'insufficient_scope']);
      // Another org's intention id is unknown there, and its own window holds none of these calls.
      const foreign = await stranger.operator.post('/v1/replays', archive);
      expect([foreign.status, foreign.body.code]).toEqual([404, 'not_found']);
      expect((await stranger.operator.post('/v1/replays', { kind: 'intentions', changes: [] })).body).toEqual({
        replayed: 0,
        transitions: [],
        calls: [],
        next_cursor: null,
      });

      const refused = async (body: unknown) => {
        const res = await operator.post('/v1/replays', body);
        return [res.status, res.body.code, (res.body.details ?? []).map((d: { path: string }) => d.path)[0]];
      };
      expect(await refused({ kind: 'intentions', changes: [{ action: 'create', intention: { label: 'Bad Label', intent_class: 'lookup' } }] })).toEqual([
        400,
        'invalid_request',
        'changes[0].intention.label',
      ]);
      expect(
        await refused({ kind: 'intentions', changes: [{ action: 'create', intention: { label: 'ok.label', intent_class: 'lookup', tools: ['bad tool'] } }] }),
      ).toEqual([400, 'invalid_request', 'changes[0].intention.tools[0]']);
      expect(await refused({ kind: 'intentions', changes: [{ action: 'update', id: contacts, intention: {} }] })).toEqual([
        400,
        'invalid_request',
        'changes[0].intention',
      ]);
      expect(await refused({ kind: 'intentions', changes: [{ action: 'rename', id: contacts }] })).toEqual([400, 'invalid_request', 'changes[0].action']);
      expect(await refused({ kind: 'intentions', changes: [], limit: 10_001 })).toEqual([400, 'invalid_request', 'limit']);
      expect(await refused({ kind: 'everything', changes: [] })).toEqual([400, 'invalid_request', 'kind']);
      expect(await refused({ kind: 'card' })).toEqual([400, 'invalid_request', 'card']);
      expect(await refused({ kind: 'card', card: { id: 'card_1' } })).toEqual([400, 'invalid_request', 'card.name']);
      expect(await refused({ kind: 'intentions', changes: [], since: 'yesterday' })).toEqual([400, 'invalid_request', 'since']);
      expect(await refused({ kind: 'intentions', changes: [{ action: 'create', intention: { label: CONTACTS.label, intent_class: 'lookup' } }] })).toEqual([
        409,
        'label_conflict',
        undefined,
      ]);
      expect((await operator.post('/v1/replays', { kind: 'intentions', changes: [], limit: 10_000 })).status).toBe(200);
    });

    /** An org with a CRM card and three kept mandate-path calls on it: two reads and an update, all allowed. */
    async function mandateCalls(name: string) {
      const o = await org(name);
      await installCard(o.operator, crmCard('crm-agent', 'CRM agent'));
      const mandate = await dispenseMandate(o.operator, { intentId: 'crm-agent', actor: 'agent:crm-bot' });
      const call = (operation: string) =>
        o.agent.post(
          '/v1/mcp-proxy/call',
          {
            action: { surface: 'sdk', operation, arguments: { id: 1 }, target_resource: 'crm://contacts/1' },
            context: { actor: 'agent:crm-bot' },
            audience: 'crm-api',
          },
          { 'x-service-mandate': mandate.credential },
        );
      for (const operation of ['crm.contacts.read', 'crm.contacts.read', 'crm.contacts.update']) {
        const res = await call(operation);
        expect([res.status, res.body.decision?.kind]).toEqual([200, 'allow']);
      }
      const decisions = async () => (await o.operator.get(`/v1/mcp-proxy/decisions?cred_id=${mandate.cred_id}&limit=200`)).body.data as unknown[];
      return { ...o, call, decisions };
    }

    // A draft of the same card without `crm.contacts.update` in its scope.
    const NARROWER = { ...crmCard('crm-agent', 'CRM agent'), allowed_scope: { operations: ['crm.contacts.read'], resources: ['crm://**'] } };

    it('a card draft without the scope flips allow -> deny on kept calls, recording no decision', async () => {
      const { operator, agent, call, decisions } = await mandateCalls('replay-card');
      const before = await decisions();
      expect(before).toHaveLength(3);

      const res = await operator.post('/v1/replays', { kind: 'card', card: NARROWER });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ replayed: 3, transitions: [{ from: 'allow', to: 'deny', count: 1 }], next_cursor: null });
      expect(res.body.calls).toEqual([
        { id: expect.stringMatching(/^dec_/), tool_name: 'crm.contacts.update', before: { kind: 'allow' }, after: { kind: 'deny' } },
      ]);

      // Nothing recorded, and the live card is the installed one.
      expect(await decisions()).toEqual(before);
      expect((await call('crm.contacts.update')).body.decision.kind).toBe('allow');
      expect((await agent.post('/v1/replays', { kind: 'card', card: NARROWER })).status).toBe(403);
      // A draft equal to the installed card changes nothing.
      expect((await operator.post('/v1/replays', { kind: 'card', card: crmCard('crm-agent', 'CRM agent') })).body).toMatchObject({
        replayed: 4,
        transitions: [],
        calls: [],
      });
    });

    it('a card draft without its approval rule flips approval -> allow (pending -> allowed) on kept calls', async () => {
      const o = await org('replay-card-approval');
      const ASKING = {
        ...crmCard('crm-agent', 'CRM agent'),
        rules: [{ id: 'ask-update', when: 'action.operation == "crm.contacts.update"', decision: { kind: 'approval' } }],
      };
      await installCard(o.operator, ASKING);
      const mandate = await dispenseMandate(o.operator, { intentId: 'crm-agent', actor: 'agent:crm-bot' });
      for (const operation of ['crm.contacts.read', 'crm.contacts.update']) {
        const res = await o.agent.post(
          '/v1/mcp-proxy/call',
          {
            action: { surface: 'sdk', operation, arguments: { id: 2 }, target_resource: 'crm://contacts/2' },
            context: { actor: 'agent:crm-bot' },
            audience: 'crm-api',
          },
          { 'x-service-mandate': mandate.credential },
        );
        expect(res.body.decision?.kind).toBe(operation === 'crm.contacts.update' ? 'approval' : 'allow');
      }
      const res = await o.operator.post('/v1/replays', { kind: 'card', card: { ...ASKING, rules: [] } });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ replayed: 2, transitions: [{ from: 'approval', to: 'allow', count: 1 }] });
      expect(res.body.calls).toEqual([
        { id: expect.stringMatching(/^dec_/), tool_name: 'crm.contacts.update', before: { kind: 'approval' }, after: { kind: 'allow' } },
      ]);
    });

    it("a card replay never replays another org's calls, and refuses what the install refuses", async () => {
      const { operator } = await mandateCalls('replay-card-edge');
      const stranger = await org('replay-card-stranger');
      expect((await stranger.operator.post('/v1/replays', { kind: 'card', card: NARROWER })).body).toEqual({
        replayed: 0,
        transitions: [],
        calls: [],
        next_cursor: null,
      });
      const refused = async (card: unknown) => {
        const res = await operator.post('/v1/replays', { kind: 'card', card });
        return [res.status, res.body.code, (res.body.details ?? []).map((d: { path: string }) => d.path)[0]];
      };
      expect(await refused({ ...NARROWER, allowed_scope: { resources: ['crm://**'] } })).toEqual([400, 'invalid_request', 'card.allowed_scope.operations']);
      expect(await refused({ ...NARROWER, rules: [{ id: 'r1', when: 'action.operation ==', decision: { kind: 'deny' } }] })).toEqual([
        400,
        'invalid_request',
        'card.rules[0].when',
      ]);
      expect(await refused({ ...NARROWER, id: 'Bad Id' })).toEqual([400, 'invalid_request', 'card.id']);
    });
  });
}
