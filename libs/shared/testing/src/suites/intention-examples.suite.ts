import { client, type Client } from '../e2e/http-client';
import type { TestSystem } from '../e2e/system';

/**
 * Tool bindings, PATCH and examples of intentions over HTTP (DESIGN 6.3, 6.15), in every mode:
 * the registry's answers, its scopes and tenancy, and a read model of the evaluator that still
 * loads the org's active intentions (now with examples) after each change.
 */
export function describeIntentionExamples(mode: string, start: () => Promise<TestSystem>) {
  describe(`intention bindings and examples (${mode})`, () => {
    let sys: TestSystem;
    let writer: Client;
    let reader: Client;
    let otherOrg: Client;

    beforeAll(async () => {
      sys = await start();
      const admin = client(sys.url, sys.adminKey);
      const w = await admin.post('/v1/api-keys', { name: 'writer', scope: 'policy_write' });
      expect(w.status).toBe(201);
      writer = client(sys.url, w.body.key);
      reader = client(sys.url, (await admin.post('/v1/api-keys', { name: 'reader', scope: 'read_only' })).body.key);
      const o = await client(sys.url, sys.platformKey).post('/v1/orgs', { name: 'examples-other-org' });
      expect(o.status).toBe(201);
      otherOrg = client(sys.url, o.body.api_key.key);
    });

    afterAll(async () => {
      await sys?.stop();
    });

    const paths = (res: { body: { details?: { path: string }[] } }) => (res.body.details ?? []).map((d) => d.path);
    const active = async (label: string, extra: Record<string, unknown> = {}) => {
      const created = await writer.post('/v1/intentions', { label, intent_class: 'lookup', ...extra });
      expect(created.status).toBe(201);
      expect((await writer.post(`/v1/intentions/${created.body.id}/publish`)).status).toBe(200);
      return created.body as { id: string; tools: string[] };
    };
    const example = { tool_call: { name: 'crm.get_contact', arguments: { email: 'ada@example.com' } }, covered: true };

    it('creates with tools (duplicates removed), names a bad pattern by its index, and shows tools everywhere', async () => {
      const created = await writer.post('/v1/purposes', { label: 'crm.bound', intent_class: 'lookup', tools: ['crm.get_*', 'crm.get_*', 'crm.search'] });
      expect(created.status).toBe(201);
      expect(created.body.tools).toEqual(['crm.get_*', 'crm.search']);
      expect((await reader.get(`/v1/intentions/${created.body.id}`)).body.tools).toEqual(['crm.get_*', 'crm.search']);
      expect((await writer.post('/v1/intentions', { label: 'no.tools', intent_class: 'lookup' })).body.tools).toEqual([]);

      for (const tools of [['crm bad'], ['a*'.repeat(33)]]) {
        const bad = await writer.post('/v1/intentions', { label: 'crm.bad', intent_class: 'lookup', tools });
        expect(bad.status).toBe(400);
        expect(bad.body.code).toBe('invalid_request');
        expect(paths(bad)).toEqual(['tools[0]']);
      }
      const notList = await writer.post('/v1/intentions', { label: 'crm.bad', intent_class: 'lookup', tools: 'crm.*' });
      expect(notList.status).toBe(400);
      expect(paths(notList)[0]).toMatch(/^tools/);
    });

    it('PATCH changes the given fields with a new version, under both paths; scope, tenancy and archive rules', async () => {
      const intention = await active('crm.patched');
      const patched = await writer.patch(`/v1/intentions/${intention.id}`, { tools: ['crm.update_*'], ttl_minutes: 30, label: 'ignored' });
      expect(patched.status).toBe(200);
      expect(patched.body).toMatchObject({ id: intention.id, label: 'crm.patched', status: 'active', tools: ['crm.update_*'], ttl_minutes: 30, version: 3 });
      const viaPurposes = await writer.patch(`/v1/purposes/${intention.id}`, { description: 'Updates contacts.' });
      expect(viaPurposes.body).toMatchObject({ description: 'Updates contacts.', tools: ['crm.update_*'], version: 4 });
      expect((await reader.get(`/v1/intentions/${intention.id}`)).body).toEqual(viaPurposes.body);

      for (const body of [{}, undefined]) {
        const empty = await writer.patch(`/v1/intentions/${intention.id}`, body);
        expect(empty.status).toBe(400);
        expect(paths(empty)).toEqual(['body']);
      }
      const bad = await writer.patch(`/v1/intentions/${intention.id}`, { tools: ['ok.tool', 'not ok'] });
      expect([bad.status, paths(bad)]).toEqual([400, ['tools[1]']]);
      const cleared = await writer.patch(`/v1/intentions/${intention.id}`, { tools: null });
      expect([cleared.status, paths(cleared)]).toEqual([400, ['tools']]);
      expect((await writer.patch(`/v1/intentions/${intention.id}`, { colour: 'red' })).status).toBe(400);
      expect((await reader.patch(`/v1/intentions/${intention.id}`, { description: 'x' })).status).toBe(403);
      for (const res of [
        await otherOrg.patch(`/v1/intentions/${intention.id}`, { description: 'x' }),
        await writer.patch('/v1/intentions/int_nope', { description: 'x' }),
      ]) {
        expect([res.status, res.body.code]).toEqual([404, 'not_found']);
      }
      await writer.post(`/v1/intentions/${intention.id}/archive`);
      const late = await writer.patch(`/v1/intentions/${intention.id}`, { description: 'x' });
      expect([late.status, late.body.code]).toEqual([409, 'invalid_transition']);
    });

    it('adds, lists (paged) and deletes examples under both paths; any key reads them', async () => {
      const intention = await active('crm.lookup', { tools: ['crm.get_*'] });
      const added = await writer.post(`/v1/intentions/${intention.id}/examples`, {
        ...example,
        conversation_context: [{ role: 'user', content: 'Find Ada.' }],
      });
      expect(added.status).toBe(201);
      expect(added.body).toEqual({
        id: expect.stringMatching(/^iex_[0-9a-f]{32}$/),
        intention_id: intention.id,
        tool_call: example.tool_call,
        conversation_context: [{ role: 'user', content: 'Find Ada.' }],
        covered: true,
        source: 'manual',
        approval_id: null,
        created_at: expect.any(String),
      });
      const negative = await writer.post(`/v1/purposes/${intention.id}/examples`, { tool_call: { name: 'crm.delete_contact' }, covered: false });
      expect(negative.status).toBe(201);

      const first = await reader.get(`/v1/intentions/${intention.id}/examples?limit=1`);
      expect(first.status).toBe(200);
      expect(first.body.data.map((e: { id: string }) => e.id)).toEqual([negative.body.id]);
      const second = await reader.get(`/v1/purposes/${intention.id}/examples?limit=1&cursor=${first.body.next_cursor}`);
      expect(second.body).toEqual({ data: [added.body], next_cursor: null });
      expect((await reader.get(`/v1/intentions/${intention.id}/examples?limit=500`)).status).toBe(400);

      // The evaluator's read model loads the org's active intentions with their examples.
      const evaluated = await reader.post('/v1/intent/evaluate', { tool_call: { name: 'zz_unrelated_frobnicate' } });
      expect(evaluated.status).toBe(200);

      expect((await writer.delete(`/v1/intentions/${intention.id}/examples/${negative.body.id}`)).status).toBe(204);
      const gone = await writer.delete(`/v1/purposes/${intention.id}/examples/${negative.body.id}`);
      expect([gone.status, gone.body.code]).toEqual([404, 'not_found']);
      expect((await reader.get(`/v1/intentions/${intention.id}/examples`)).body.data.map((e: { id: string }) => e.id)).toEqual([added.body.id]);
      expect((await reader.post('/v1/intent/evaluate', { tool_call: { name: 'zz_unrelated_frobnicate' } })).status).toBe(200);
    });

    it("another org's intention or example is a 404; read_only cannot add or delete (403)", async () => {
      const intention = await active('crm.private');
      const added = await writer.post(`/v1/intentions/${intention.id}/examples`, example);
      for (const res of [
        await otherOrg.post(`/v1/intentions/${intention.id}/examples`, example),
        await otherOrg.get(`/v1/intentions/${intention.id}/examples`),
        await otherOrg.delete(`/v1/intentions/${intention.id}/examples/${added.body.id}`),
        await writer.post('/v1/intentions/int_unknown/examples', example),
      ]) {
        expect([res.status, res.body.code]).toEqual([404, 'not_found']);
      }
      const denied = await reader.post(`/v1/intentions/${intention.id}/examples`, example);
      expect([denied.status, denied.body.code]).toEqual([403, 'insufficient_scope']);
      expect((await reader.delete(`/v1/intentions/${intention.id}/examples/${added.body.id}`)).status).toBe(403);
      expect((await reader.get(`/v1/intentions/${intention.id}/examples`)).body.data).toHaveLength(1);
    });

    it('refuses a bad or over-size example naming the field, and any example of an archived intention (409)', async () => {
      const nested = (depth: number): unknown => (depth === 0 ? 'leaf' : { d: nested(depth - 1) });
      const intention = await active('crm.limits');
      const cases: [unknown, string][] = [
        [{ tool_call: example.tool_call }, 'covered'],
        [{ covered: true }, 'tool_call'],
        [{ tool_call: { name: 'x'.repeat(257) }, covered: true }, 'tool_call.name'],
        [{ tool_call: { name: 'crm.get', arguments: { blob: 'x'.repeat(17 * 1024) } }, covered: true }, 'tool_call'],
      ];
      for (const [body, path] of cases) {
        const res = await writer.post(`/v1/intentions/${intention.id}/examples`, body);
        expect([res.status, res.body.code, paths(res)]).toEqual([400, 'invalid_request', [path]]);
      }
      // Hostile shapes: wrong types, deep nesting, a lone surrogate — 400 naming the field, never 500.
      const hostile: [unknown, string][] = [
        [{ tool_call: 'crm.get', covered: true }, 'tool_call'],
        [{ tool_call: { name: 'crm.get', arguments: [1] }, covered: true }, 'tool_call.arguments'],
        [{ tool_call: example.tool_call, covered: 'yes' }, 'covered'],
        [{ tool_call: example.tool_call, covered: true, conversation_context: 'hello' }, 'conversation_context'],
        [{ tool_call: { name: 'crm.get', arguments: { deep: nested(100) } }, covered: true }, 'tool_call.arguments'],
        [{ tool_call: { name: 'crm.get', arguments: { x: 'a\ud800b' } }, covered: true }, 'tool_call.arguments.x'],
      ];
      for (const [body, path] of hostile) {
        const res = await writer.post(`/v1/intentions/${intention.id}/examples`, body);
        expect({ body, status: res.status, code: res.body.code }).toEqual({ body, status: 400, code: 'invalid_request' });
        // The edge names the innermost field it refuses (`tool_call.arguments.deep.d.d…`).
        expect({ path, named: paths(res).some((p: string) => p === path || p.startsWith(`${path}.`)) }).toEqual({ path, named: true });
      }
      await writer.post(`/v1/intentions/${intention.id}/archive`);
      const archived = await writer.post(`/v1/intentions/${intention.id}/examples`, example);
      expect([archived.status, archived.body.code]).toEqual([409, 'invalid_transition']);
    });
  });
}
