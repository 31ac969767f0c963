import { createHash, generateKeyPairSync, randomBytes } from 'node:crypto';
import { SignJWT } from 'jose';
import { client, type Client } from '../e2e/http-client';
import { suiteClients } from '../e2e/org-keys';
import type { TestSystem } from '../e2e/system';

/**
 * The legacy enforcement path over HTTP (spec: evaluate, history, grants; DESIGN 6.4–6.6, 6.10),
 * the same in every mode. Each test uses its own labels and tool names so tests do not interfere.
 */
export function describeIntentEvaluation(mode: string, start: () => Promise<TestSystem>) {
  describe(`intent evaluation (${mode})`, () => {
    let sys: TestSystem;
    let admin: Client;
    let writer: Client;
    let agent: Client;
    let otherOrg: Client;

    beforeAll(async () => {
      sys = await start();
      ({ admin, writer, readOnly: agent, otherOrg } = await suiteClients(sys, 'agent'));
    });

    afterAll(async () => {
      await sys?.stop();
    });

    /** Creates (and by default publishes) an intention; returns its id. */
    async function intention(body: Record<string, unknown>, publish = true): Promise<string> {
      const created = await writer.post('/v1/intentions', { intent_class: 'lookup', ...body });
      expect(created.status).toBe(201);
      if (publish) expect((await writer.post(`/v1/intentions/${created.body.id}/publish`)).status).toBe(200);
      return created.body.id;
    }

    const evaluate = (c: Client, body: Record<string, unknown>) => c.post('/v1/intent/evaluate', body);

    it('refuses invalid requests with 400 invalid_request naming the field, and requires a key', async () => {
      const cases: [unknown, string][] = [
        [{}, 'tool_call'],
        [{ tool_call: 'x' }, 'tool_call'],
        [{ tool_call: {} }, 'tool_call.name'],
        [{ tool_call: { name: 5 } }, 'tool_call.name'],
        [{ tool_call: { name: 'x'.repeat(257) } }, 'tool_call.name'],
        [{ tool_call: { name: 'x', arguments: [1] } }, 'tool_call.arguments'],
        [{ tool_call: { name: 'x' }, shadow_mode: 'yes' }, 'shadow_mode'],
        [{ tool_call: { name: 'x' }, user_id: 7 }, 'user_id'],
        [{ tool_call: { name: 'x' }, conversation_context: [{ role: 'user' }] }, 'conversation_context[0].content'],
        [{ tool_call: { name: 'x' }, conversation_context: Array.from({ length: 51 }, () => ({ role: 'user', content: 'hi' })) }, 'conversation_context'],
        [{ tool_call: { name: 'x' }, colour: 'red' }, 'colour'],
      ];
      for (const [body, path] of cases) {
        const res = await evaluate(agent, body as Record<string, unknown>);
        expect({ body, status: res.status, code: res.body.code }).toEqual({ body, status: 400, code: 'invalid_request' });
        expect(res.body.message).toEqual(expect.any(String));
        expect(res.body.details.map((d: { path: string }) => d.path)).toContain(path);
      }
      // A field left out says it is required (not that some value of it is off).
      expect((await evaluate(agent, {})).body).toMatchObject({
        message: 'tool_call is required',
        details: [{ path: 'tool_call', message: 'tool_call is required' }],
      });
      expect((await evaluate(agent, { tool_call: { arguments: {} } })).body).toMatchObject({
        message: 'tool_call.name is required',
        details: [{ path: 'tool_call.name', message: 'tool_call.name is required' }],
      });
      let deep: unknown = 'leaf';
      for (let i = 0; i < 100; i++) deep = { d: deep };
      const tooDeep = await evaluate(agent, { tool_call: { name: 'x', arguments: deep } });
      expect(tooDeep.status).toBe(400);
      expect((await agent.post('/v1/intent/evaluate', '{"tool_call":')).status).toBe(400);
      expect((await client(sys.url).post('/v1/intent/evaluate', { tool_call: { name: 'x' } })).status).toBe(401);
    });

    it('a call no active intention covers is ambient: denied, class other, policy ambient, no grant, recorded', async () => {
      const res = await evaluate(agent, { tool_call: { name: 'zz_unmatched_widget_frobnicate' }, user_id: 'u_amb' });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        outcome: 'denied',
        intent_label: 'ambient',
        intent_class: 'other',
        policy_id: 'ambient',
        data_elements: [],
        shadow_mode: false,
        approval_request_id: null,
      });
      expect(res.body.grant).toBeUndefined();
      expect(res.body.confidence).toBeGreaterThanOrEqual(0);
      expect(res.body.confidence).toBeLessThanOrEqual(1);
      expect(Number.isInteger(res.body.processing_time_ms)).toBe(true);
      expect(res.body.classification_evidence).toMatchObject({ schema_version: 1, classification_method: 'lexical', evaluation_layers_consulted: ['lexical'] });
      const history = await agent.get('/v1/intent/history?limit=200');
      expect(history.body.data.find((e: { id: string }) => e.id === res.body.intent_event_id)).toMatchObject({
        outcome: 'denied',
        intent_label: 'ambient',
        user_id: 'u_amb',
        tool_name: 'zz_unmatched_widget_frobnicate',
      });
    });

    it('a publish decides the very next evaluation, and an archive the one after it', async () => {
      const call = { tool_call: { name: 'zendesk.get_ticket', arguments: { ticket_id: 'T-1' } } };
      const id = await intention(
        {
          label: 'support.ticket_lookup',
          display_name: 'Look up a support ticket',
          description: 'Read a Zendesk ticket to answer a customer.',
          data_elements: [{ data_source_id: 'zendesk', path: 'tickets.subject' }],
          tools: ['zendesk.get_ticket'],
        },
        false,
      );
      expect((await evaluate(agent, call)).body.outcome).toBe('denied');
      const published = await writer.post(`/v1/intentions/${id}/publish`);
      const allowed = await evaluate(agent, call);
      expect(allowed.body).toMatchObject({
        outcome: 'allowed',
        intent_label: 'support.ticket_lookup',
        intent_class: 'lookup',
        policy_id: `${id}@${published.body.version}`,
      });
      expect(allowed.body.grant).toEqual(expect.any(String));
      expect(allowed.body.data_elements).toEqual(['zendesk:tickets.subject']);
      expect(allowed.body.classification_evidence).toMatchObject({
        classification_method: 'binding',
        certain: true,
        matched_binding: 'zendesk.get_ticket',
        supporting_evidence: [{ intent_label: 'support.ticket_lookup' }],
      });
      expect((await writer.post(`/v1/intentions/${id}/archive`)).status).toBe(200);
      expect((await evaluate(agent, call)).body).toMatchObject({ outcome: 'denied', intent_label: 'ambient' });
    });

    it('approves the intersection of named fields and the intention, and denies a field outside it', async () => {
      const callOf = { tool_call: { name: 'hubspot.get_contact', arguments: { email: 'ada@example.com' } } };
      await intention({
        label: 'crm.contact_lookup',
        display_name: 'Look up a CRM contact',
        description: 'Read a HubSpot contact (email, phone) to answer a question about a customer.',
        tools: ['hubspot.get_contact'],
        data_elements: [
          { data_source_id: 'hubspot', path: 'contacts.email' },
          { data_source_id: 'hubspot', path: 'contacts.phone' },
          { data_source_id: 'salesforce', path: 'contacts.email' },
        ],
      });
      const call = (args: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
        evaluate(agent, { tool_call: { name: 'hubspot.get_contact', arguments: args }, ...extra });
      expect((await call({ email: 'ada@example.com', fields: ['email'] }, { data_source_id: 'hubspot' })).body).toMatchObject({
        outcome: 'allowed',
        data_elements: ['hubspot:contacts.email'],
      });
      expect((await call({ columns: 'email, phone' })).body.data_elements).toEqual([
        'hubspot:contacts.email',
        'hubspot:contacts.phone',
        'salesforce:contacts.email',
      ]);
      expect((await call({ email: 'ada@example.com' })).body.data_elements).toHaveLength(3);
      const refused = await call({ fields: ['email', 'ssn'] });
      expect(refused.body).toMatchObject({
        outcome: 'denied',
        intent_label: 'crm.contact_lookup',
        data_elements: [],
        reason: 'data_element_refused',
        refused_fields: ['ssn'],
      });
      expect(refused.body.grant).toBeUndefined();
      // Another org's evaluation never sees this org's intentions.
      expect((await evaluate(otherOrg, callOf)).body).toMatchObject({ outcome: 'denied', intent_label: 'ambient' });
      const shadow = await call({ fields: ['ssn'] }, { shadow_mode: true });
      expect(shadow.body).toMatchObject({ outcome: 'shadow_denied', shadow_mode: true, approval_request_id: null });
      expect(shadow.body.grant).toBeUndefined();
    });

    it('approval: pending (listed before the answer), self-approval refused, approved once with a grant, then pending again', async () => {
      await intention({
        label: 'billing.refund_issue',
        display_name: 'Issue a refund',
        description: 'Refund a Stripe charge for a customer.',
        intent_class: 'write',
        approval_required: true,
        ttl_minutes: 5,
      });
      const body = { tool_call: { name: 'stripe.create_refund', arguments: { charge: 'ch_42', amount: 500 } }, user_id: 'u_refund', session_id: 's_1' };
      const pending = await evaluate(admin, body);
      expect(pending.body).toMatchObject({
        outcome: 'pending_approval',
        intent_label: 'billing.refund_issue',
        approval_request_id: expect.stringMatching(/^apr_/),
      });
      expect(pending.body.grant).toBeUndefined();
      const requestId = pending.body.approval_request_id;
      const listed = await writer.get('/v1/approvals?status=pending&limit=200');
      expect(listed.body.data.find((a: { id: string }) => a.id === requestId)).toMatchObject({
        status: 'pending',
        source: 'evaluate',
        intent_label: 'billing.refund_issue',
        tool_name: 'stripe.create_refund',
        user_id: 'u_refund',
      });
      // Asking again while it waits does not queue a second request.
      expect((await evaluate(admin, body)).body.approval_request_id).toBe(requestId);
      // Shadow mode never blocks and never creates approvals.
      const shadow = await evaluate(admin, { ...body, session_id: 's_shadow', shadow_mode: true });
      expect(shadow.body).toMatchObject({ outcome: 'shadow_denied', approval_request_id: null });

      expect((await admin.post(`/v1/approvals/${requestId}/approve`)).body.code).toBe('self_approval');
      expect((await writer.post(`/v1/approvals/${requestId}/approve`)).body.status).toBe('approved');
      // Not the same call: another session, other arguments, another org.
      expect((await evaluate(admin, { ...body, session_id: 's_2' })).body.outcome).toBe('pending_approval');
      expect((await evaluate(admin, { ...body, tool_call: { ...body.tool_call, arguments: { charge: 'ch_42', amount: 501 } } })).body.outcome).toBe(
        'pending_approval',
      );

      // Key order in arguments does not make it another call.
      const approved = await evaluate(admin, { ...body, tool_call: { name: 'stripe.create_refund', arguments: { amount: 500, charge: 'ch_42' } } });
      expect(approved.body).toMatchObject({ outcome: 'approved', approval_request_id: requestId, grant: expect.any(String) });
      // The grant authorises the approved call (in any key order), and no other.
      const verify = (tool_call: unknown) => admin.post('/v1/grants/verify', { token: approved.body.grant, tool_call });
      expect((await verify(body.tool_call)).body.valid).toBe(true);
      expect((await verify({ ...body.tool_call, arguments: { charge: 'ch_42', amount: 50_000 } })).body).toEqual({ valid: false, reason: 'other_call' });
      const again = await evaluate(admin, body);
      expect(again.body.outcome).toBe('pending_approval');
      expect(again.body.approval_request_id).not.toBe(requestId);
    });

    /** Publishes an approval_required intention and evaluates `tool_call` against it: the pending request's id and the intention's. */
    async function pendingApproval(label: string, title: string, tool_call: { name: string; arguments: Record<string, unknown> }) {
      // Bound to its tool: certain, so the request is the intention's own approval.
      const intentionId = await intention({
        label,
        display_name: title,
        description: `${title} with Stripe.`,
        intent_class: 'write',
        approval_required: true,
        tools: [tool_call.name],
      });
      const pending = await evaluate(admin, { tool_call, conversation_context: [{ role: 'user', content: `${title}, please` }] });
      expect(pending.body).toMatchObject({ outcome: 'pending_approval', intent_label: label });
      return { id: pending.body.approval_request_id as string, intentionId };
    }

    it('approvals show the evaluated call; a teaching body is checked field by field (DESIGN 6.15)', async () => {
      const tool_call = { name: 'stripe.send_payout', arguments: { account: 'acct_9', amount: 1200 } };
      const { id } = await pendingApproval('treasury.payout_send', 'Send a payout', tool_call);
      expect((await writer.get(`/v1/approvals/${id}`)).body).toMatchObject({ source: 'evaluate', reason_code: 'approval_required', candidates: [], tool_call });
      const refused = async (body: unknown) => (await writer.post(`/v1/approvals/${id}/approve`, body)).body;
      expect(await refused({ intent_label: 'Not A Label!' })).toMatchObject({ code: 'invalid_request', details: [{ path: 'intent_label' }] });
      expect(await refused({ remember: 'yes' })).toMatchObject({ code: 'invalid_request', details: [{ path: 'remember' }] });
      expect(await refused({ intent_label: 'treasury.no_such_intention' })).toMatchObject({ code: 'intent_not_found', details: [{ path: 'intent_label' }] });
      expect((await writer.post(`/v1/approvals/${id}/deny`, { remember: 1 })).body).toMatchObject({ details: [{ path: 'remember' }] });
      expect((await writer.get(`/v1/approvals/${id}`)).body.status).toBe('pending');
    });

    // Needs the registry's teach / forgetTaught and GET /v1/intentions/{id}/examples (DESIGN 6.15, registry branch).
    it('approve and deny with remember: the call becomes a positive, or a negative, example of the candidate', async () => {
      const payout = { name: 'stripe.send_bulk_payout', arguments: { batch: 'b_7' } };
      const approved = await pendingApproval('treasury.bulk_payout_send', 'Send a bulk payout', payout);
      expect(await writer.post(`/v1/approvals/${approved.id}/approve`, { remember: true })).toMatchObject({ status: 200, body: { status: 'approved' } });
      const positive = await writer.get(`/v1/intentions/${approved.intentionId}/examples`);
      expect(positive.body.data).toEqual([expect.objectContaining({ covered: true, source: 'approval', approval_id: approved.id, tool_call: payout })]);

      const reversal = { name: 'stripe.reverse_transfer', arguments: { transfer: 'tr_3' } };
      const denied = await pendingApproval('treasury.transfer_reverse', 'Reverse a transfer', reversal);
      expect(await writer.post(`/v1/approvals/${denied.id}/deny`, { remember: true, reason: 'not now' })).toMatchObject({
        status: 200,
        body: { status: 'denied' },
      });
      const negative = await writer.get(`/v1/intentions/${denied.intentionId}/examples`);
      expect(negative.body.data).toEqual([expect.objectContaining({ covered: false, source: 'approval', approval_id: denied.id, tool_call: reversal })]);
    });

    it('a grant is bound to its call: valid with it, other_call with another tool name or other arguments (DESIGN 6.5)', async () => {
      await intention({
        label: 'crm.deal_lookup',
        display_name: 'Look up a deal',
        description: 'Read a Pipedrive deal by id.',
        data_elements: [{ data_source_id: 'pipedrive', path: 'deals.value' }],
        tools: ['pipedrive.get_deal'],
      });
      const own = { name: 'pipedrive.get_deal', arguments: { deal_id: 'D-7', fields: ['value'] } };
      const res = await evaluate(agent, { tool_call: own });
      expect(res.body.outcome).toBe('allowed');
      const token: string = res.body.grant;
      // The claim a resource server can check itself: SHA-256 (hex) of the canonical tool call.
      const claims = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString());
      expect(claims.call).toBe(createHash('sha256').update('{"args":{"deal_id":"D-7","fields":["value"]},"tool":"pipedrive.get_deal","v":1}').digest('hex'));

      const verify = (tool_call?: unknown) => agent.post('/v1/grants/verify', tool_call === undefined ? { token } : { token, tool_call });
      const plain = await verify();
      expect(plain.body).toMatchObject({ valid: true, grant: { intent_label: 'crm.deal_lookup', intent_event_id: res.body.intent_event_id } });
      expect((await verify(own)).body).toEqual(plain.body);
      expect((await verify({ name: own.name, arguments: { fields: ['value'], deal_id: 'D-7' } })).body).toEqual(plain.body);
      for (const other of [
        { name: 'pipedrive.delete_deal', arguments: own.arguments },
        { name: own.name, arguments: { deal_id: 'D-8', fields: ['value'] } },
        { name: own.name, arguments: { deal_id: 'D-7', fields: ['value', 'owner'] } },
        { name: own.name },
      ]) {
        expect({ other, body: (await verify(other)).body }).toEqual({ other, body: { valid: false, reason: 'other_call' } });
      }
      // Another org learns nothing about the binding; a bad tool_call is a 400 naming it.
      expect((await otherOrg.post('/v1/grants/verify', { token, tool_call: own })).body).toEqual({ valid: false, reason: 'other_org' });
      expect((await verify({ arguments: {} })).body).toMatchObject({ code: 'invalid_request', message: 'tool_call.name is required' });
      expect((await verify({ name: own.name, arguments: [1] })).body).toMatchObject({ code: 'invalid_request', details: [{ path: 'tool_call.arguments' }] });
      expect((await agent.post('/v1/grants/verify', { tool_call: own })).body).toMatchObject({ code: 'invalid_request', message: 'token is required' });
    });

    it('grants verify for their org only; tampered, foreign, malformed and mandate tokens are not valid grants', async () => {
      await intention({
        label: 'hr.employee_lookup',
        display_name: 'Look up an employee',
        description: 'Read an employee record from Workday.',
        data_elements: [{ data_source_id: 'workday', path: 'employees.title' }],
        tools: ['workday.get_*'],
        ttl_minutes: 10,
      });
      const res = await evaluate(agent, { tool_call: { name: 'workday.get_employee', arguments: { employee_id: 'E1' } }, user_id: 'u_hr' });
      expect(res.body.outcome).toBe('allowed');
      const token: string = res.body.grant;
      const verified = await agent.post('/v1/grants/verify', { token });
      expect(verified.status).toBe(200);
      expect(verified.body).toEqual({
        valid: true,
        grant: {
          data_elements: ['workday:employees.title'],
          intent_label: 'hr.employee_lookup',
          intent_event_id: res.body.intent_event_id,
          user_id: 'u_hr',
          expires_at: expect.any(String),
        },
      });
      const ttl = Date.parse(verified.body.grant.expires_at) - Date.now();
      expect(ttl).toBeGreaterThan(8 * 60_000);
      expect(ttl).toBeLessThanOrEqual(10 * 60_000);

      expect((await otherOrg.post('/v1/grants/verify', { token })).body).toEqual({ valid: false, reason: 'other_org' });
      const [h, p, s] = token.split('.');
      const claims = JSON.parse(Buffer.from(p!, 'base64url').toString());
      const widened = Buffer.from(JSON.stringify({ ...claims, data_elements: ['workday:*'] })).toString('base64url');
      expect((await agent.post('/v1/grants/verify', { token: `${h}.${widened}.${s}` })).body).toEqual({ valid: false, reason: 'bad_signature' });
      expect((await agent.post('/v1/grants/verify', { token: 'not-a-token' })).body).toEqual({ valid: false, reason: 'malformed' });
      // The same bytes spelt otherwise (padding, a stray character) are not the grant (DESIGN 6.12).
      for (const respelt of [`${h}.${p}.${s}==`, `${h}=.${p}.${s}`, `${h}.${p}=.${s}`, `${h}.${p}.${s!.slice(0, 5)}+${s!.slice(5)}`]) {
        expect((await agent.post('/v1/grants/verify', { token: respelt })).body).toEqual({ valid: false, reason: 'malformed' });
      }
      const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
      const mandate = await new SignJWT({ org: claims.org, intent_id: 'card_1' })
        .setProtectedHeader({ alg: 'RS256', typ: 'mandate+jwt', kid: 'k1' })
        .setIssuedAt()
        .setExpirationTime('5m')
        .sign(rsa.privateKey);
      expect((await agent.post('/v1/grants/verify', { token: mandate })).body).toMatchObject({ valid: false });
      expect((await agent.post('/v1/grants/verify', {})).status).toBe(400);
    });

    it('history: newest first, filters, limit bounds, a cursor that walks every event once, org-scoped', async () => {
      const tool = `zz_history_probe_${randomBytes(3).toString('hex')}`;
      const ids: string[] = [];
      for (let i = 0; i < 7; i++) ids.push((await evaluate(agent, { tool_call: { name: tool }, session_id: `s${i}` })).body.intent_event_id);
      const first = await agent.get('/v1/intent/history?limit=3');
      expect(first.status).toBe(200);
      expect(first.body.data).toHaveLength(3);
      expect(first.body.data.map((e: { id: string }) => e.id)).toEqual(ids.slice(-3).reverse());
      expect(Object.keys(first.body.data[0]).sort()).toEqual(
        [
          'approval_request_id',
          'confidence',
          'conversation_id',
          'created_at',
          'data_elements',
          'id',
          'intent_class',
          'intent_label',
          'outcome',
          'policy_id',
          'processing_time_ms',
          'session_id',
          'shadow_mode',
          'tool_name',
          'user_id',
        ].sort(),
      );
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const page: { body: { data: { id: string; tool_name: string }[]; next_cursor: string | null } } = await agent.get(
          `/v1/intent/history?limit=2${cursor ? `&cursor=${cursor}` : ''}`,
        );
        seen.push(...page.body.data.filter((e) => e.tool_name === tool).map((e) => e.id));
        cursor = page.body.next_cursor;
        // Events recorded while walking never shift the pages still to come.
        if (seen.length === 2) await evaluate(agent, { tool_call: { name: tool }, session_id: 'late' });
      } while (cursor);
      expect(seen).toEqual([...ids].reverse());

      const denied = await agent.get('/v1/intent/history?outcome=denied&limit=200');
      expect(denied.body.data.every((e: { outcome: string }) => e.outcome === 'denied')).toBe(true);
      const future = await agent.get(`/v1/intent/history?since=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`);
      expect(future.body).toEqual({ data: [], next_cursor: null });
      for (const q of ['limit=201', 'limit=0', 'outcome=maybe', 'since=yesterday', 'cursor=abc!']) {
        const bad = await agent.get(`/v1/intent/history?${q}`);
        expect(bad.status).toBe(400);
        expect(bad.body.details[0].path).toBe(q.split('=')[0]);
      }
      const foreign = await otherOrg.get('/v1/intent/history?limit=200');
      expect(foreign.body.data.some((e: { tool_name: string }) => e.tool_name === tool)).toBe(false);
    });
  });
}
