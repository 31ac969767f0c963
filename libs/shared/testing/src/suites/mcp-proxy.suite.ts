import { generateKeyPairSync, createHmac, createSign, type KeyObject } from 'node:crypto';
import { decodeProtectedHeader } from 'jose';
import { client, type Client, type JsonResponse } from '../e2e/http-client';
import { mintKey, otherOrgClient } from '../e2e/org-keys';
import type { TestSystem } from '../e2e/system';

const b64 = (v: unknown) => Buffer.from(typeof v === 'string' ? v : JSON.stringify(v)).toString('base64url');

/** A compact JWS signed with RS256 by a key the issuer never published (an attacker's). */
function forgeRs256(header: Record<string, unknown>, payload: Record<string, unknown>, key: KeyObject): string {
  const input = `${b64(header)}.${b64(payload)}`;
  const sig = createSign('RSA-SHA256').update(input).sign(key).toString('base64url');
  return `${input}.${sig}`;
}

/**
 * `POST /v1/mcp-proxy/call` over HTTP (DESIGN 6.9), the same in every mode. In distributed mode
 * the system runs two decision-proxy replicas behind two gateways; `urls[1]` reaches the other
 * replica, so "the very next call" after a revocation or a card change is checked on a replica
 * that did not see the change happen.
 */
export function describeMcpProxy(mode: string, start: () => Promise<TestSystem>) {
  describe(`mcp-proxy (${mode})`, () => {
    let sys: TestSystem;
    let writer: Client;
    let writerB: Client;
    let approver: Client;
    let reader: Client;
    let otherOrg: Client;

    const cardId = 'crm-agent';
    const rule = (id: string, operation: string, decision: Record<string, unknown>) => ({ id, when: `action.operation == "${operation}"`, decision });
    const card = (extra: Record<string, unknown> = {}) => ({
      id: cardId,
      name: 'CRM agent',
      allowed_scope: { operations: ['crm.**'], resources: ['crm://**'], forbidden_operations: ['crm.contacts.purge'] },
      audiences: ['crm-api'],
      max_ttl_seconds: 3600,
      rules: [
        rule('deny-export', 'crm.contacts.export', { kind: 'deny', reason: 'bulk_export', message: 'bulk export is not allowed' }),
        rule('reroute-billing', 'crm.invoices.read', { kind: 'deny_with_reroute', reroute_card_id: 'billing-agent', message: 'use the billing agent' }),
        rule('substitute-delete', 'crm.contacts.delete', { kind: 'substitute', replacement_action: { operation: 'crm.contacts.archive' } }),
        rule('negotiate-search', 'crm.contacts.search_all', {
          kind: 'negotiate',
          suggested_action: { operation: 'crm.contacts.search', arguments: { limit: 50 } },
          message: 'search at most 50',
        }),
        rule('log-read', 'crm.contacts.read_sensitive', { kind: 'allow_with_log_extra', log_fields: { sensitivity: 'high' } }),
        rule('redact-notes', 'crm.notes.read', { kind: 'allow_with_redact', redact_fields: ['ssn', 'dob'] }),
        rule('downgrade-write', 'crm.contacts.write_all', {
          kind: 'allow_with_downgrade',
          downgraded_action: { operation: 'crm.contacts.write', arguments: { dry_run: true } },
        }),
        rule('defer-merge', 'crm.contacts.merge', { kind: 'defer' }),
        rule('approve-refund', 'crm.refunds.create', { kind: 'approval' }),
        rule('step-up-pay', 'crm.payments.send', { kind: 'step_up', required_acr: 'hwk' }),
        {
          id: 'big-amount',
          when: 'has(action.arguments.amount) && action.arguments.amount > 10000',
          decision: { kind: 'deny', reason: 'amount_limit', message: 'too large' },
        },
      ],
      ...extra,
    });
    const dispense = async (extra: Record<string, unknown> = {}, as: Client = writer) => {
      const res = await as.post('/v1/mandate/dispense', {
        actor: 'agent:crm-bot',
        intent_id: cardId,
        prompt_id: 'prm_7',
        requested_scope: { operations: ['crm.**'], resources: ['crm://**'] },
        audience: 'crm-api',
        ttl_seconds: 600,
        context: { acr: 'mfa' },
        ...extra,
      });
      expect(res.status).toBe(200);
      return res.body as { credential: string; cred_id: string };
    };
    const body = (operation: string, extra: Record<string, unknown> = {}) => ({
      action: { surface: 'sdk', operation, arguments: { id: 42 }, target_resource: 'crm://contacts/42', ...((extra['action'] as object) ?? {}) },
      context: { actor: 'agent:crm-bot', prompt_id: 'prm_7', ...((extra['context'] as object) ?? {}) },
      audience: (extra['audience'] as string) ?? 'crm-api',
    });
    const call = (as: Client, mandate: string | undefined, payload: unknown): Promise<JsonResponse> =>
      as.post('/v1/mcp-proxy/call', payload, mandate === undefined ? {} : { 'x-service-mandate': mandate });
    let mandate: { credential: string; cred_id: string };

    beforeAll(async () => {
      sys = await start();
      const admin = client(sys.url, sys.adminKey);
      const key = (name: string, scope: string) => mintKey(admin, name, scope);
      const writerKey = await key('proxy-writer', 'policy_write');
      writer = client(sys.url, writerKey);
      writerB = client(sys.urls[sys.urls.length - 1]!, writerKey);
      approver = client(sys.url, await key('proxy-approver', 'policy_write'));
      reader = client(sys.url, await key('proxy-reader', 'read_only'));
      otherOrg = await otherOrgClient(sys, 'proxy-other');
      expect((await writer.post('/v1/intent-cards', card())).status).toBe(201);
      mandate = await dispense();
    });

    afterAll(async () => {
      await sys?.stop();
    });

    it('allows an in-scope call with no matching rule: 200, decision_id, the mandate reference, recorded', async () => {
      const res = await call(reader, mandate.credential, body('crm.contacts.read'));
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        decision: { kind: 'allow', decision_id: expect.stringMatching(/^dec_/) },
        mandate: { cred_id: mandate.cred_id, prompt_id: 'prm_7', intent_id: cardId },
      });
      // Durable when answered; readable once the journal has drained it.
      const id = res.body.decision.decision_id;
      let rec: JsonResponse | undefined;
      for (let i = 0; i < 50; i++) {
        rec = await reader.get(`/v1/mcp-proxy/decisions/${id}`);
        if (rec.status === 200) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(rec!.status).toBe(200);
      expect(rec!.body).toMatchObject({
        decision_id: id,
        decision: res.body.decision,
        cred_id: mandate.cred_id,
        operation: 'crm.contacts.read',
        arguments_sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
      });
      expect((await otherOrg.get(`/v1/mcp-proxy/decisions/${id}`)).status).toBe(404);
    });

    it.each([
      ['deny', 'crm.contacts.export', 403, { kind: 'deny', rule_id: 'deny-export', reason: 'bulk_export', message: 'bulk export is not allowed' }],
      [
        'deny_with_reroute',
        'crm.invoices.read',
        403,
        { kind: 'deny_with_reroute', rule_id: 'reroute-billing', reroute_card_id: 'billing-agent', message: 'use the billing agent' },
      ],
      [
        'substitute',
        'crm.contacts.delete',
        202,
        { kind: 'substitute', rule_id: 'substitute-delete', replacement_action: { operation: 'crm.contacts.archive' } },
      ],
      [
        'negotiate',
        'crm.contacts.search_all',
        202,
        {
          kind: 'negotiate',
          rule_id: 'negotiate-search',
          suggested_action: { operation: 'crm.contacts.search', arguments: { limit: 50 } },
          message: 'search at most 50',
        },
      ],
      ['allow_with_log_extra', 'crm.contacts.read_sensitive', 200, { kind: 'allow_with_log_extra', rule_id: 'log-read', log_fields: { sensitivity: 'high' } }],
      ['allow_with_redact', 'crm.notes.read', 200, { kind: 'allow_with_redact', rule_id: 'redact-notes', redact_fields: ['ssn', 'dob'] }],
      [
        'allow_with_downgrade',
        'crm.contacts.write_all',
        200,
        { kind: 'allow_with_downgrade', rule_id: 'downgrade-write', downgraded_action: { operation: 'crm.contacts.write', arguments: { dry_run: true } } },
      ],
      ['step_up', 'crm.payments.send', 428, { kind: 'step_up', rule_id: 'step-up-pay', required_acr: 'hwk' }],
    ])('%s: a rule decides, with the status of the spec and the fields of DESIGN 6.9', async (_kind, operation, status, decision) => {
      const res = await call(reader, mandate.credential, body(operation));
      expect(res.status).toBe(status);
      expect(res.body.decision).toEqual({ ...decision, decision_id: expect.stringMatching(/^dec_/) });
    });

    it('lists the decisions newest first, by mandate and by kind, with cursor paging; another org sees none of them', async () => {
      const own = await dispense({ prompt_id: 'prm_7' });
      const ids: string[] = [];
      for (const op of ['crm.contacts.read', 'crm.contacts.read', 'crm.contacts.purge', 'crm.notes.read']) {
        const res = await call(reader, own.credential, body(op));
        ids.push(res.body.decision.decision_id);
      }
      const list = async (q: string) => {
        for (let i = 0; i < 50; i++) {
          const res = await reader.get(`/v1/mcp-proxy/decisions?cred_id=${own.cred_id}${q}`);
          expect(res.status).toBe(200);
          if (res.body.data.length >= 1 && (q !== '' || res.body.data.length === ids.length)) return res.body;
          await new Promise((r) => setTimeout(r, 100));
        }
        throw new Error('decisions never listed');
      };
      const all = await list('');
      expect(all.data.map((d: { decision_id: string }) => d.decision_id)).toEqual([...ids].reverse());
      expect(all.data.every((d: { cred_id: string }) => d.cred_id === own.cred_id)).toBe(true);
      const denied = await list('&kind=deny');
      expect(denied.data.map((d: { decision: { kind: string } }) => d.decision.kind)).toEqual(['deny']);
      const first = await reader.get(`/v1/mcp-proxy/decisions?cred_id=${own.cred_id}&limit=3`);
      const next = await reader.get(`/v1/mcp-proxy/decisions?cred_id=${own.cred_id}&limit=3&cursor=${encodeURIComponent(first.body.next_cursor)}`);
      expect([...first.body.data, ...next.body.data].map((d: { decision_id: string }) => d.decision_id)).toEqual([...ids].reverse());
      expect(next.body.next_cursor).toBeNull();
      expect((await otherOrg.get(`/v1/mcp-proxy/decisions?cred_id=${own.cred_id}`)).body.data).toEqual([]);
      const bad = await reader.get('/v1/mcp-proxy/decisions?kind=maybe&since=yesterday');
      expect(bad.status).toBe(400);
      expect(bad.body.details.map((d: { path: string }) => d.path).sort()).toEqual(['kind', 'since']);
      // Hostile query values: huge, repeated, not valid UTF-8 — each a 400 naming the parameter, never a 500.
      for (const q of [`cred_id=${'x'.repeat(5000)}`, 'kind=deny&kind=allow', 'cred_id=%ED%A0%80', 'limit=1e9', 'until=2026-02-30']) {
        const res = await reader.get(`/v1/mcp-proxy/decisions?${q}`);
        expect({ q: q.slice(0, 30), status: res.status, code: res.body.code }).toEqual({ q: q.slice(0, 30), status: 400, code: 'invalid_request' });
      }
    });

    it('include=call shows each decision with its action and context as decided, to any key of the org, never to another org', async () => {
      const own = await dispense();
      const sent = body('crm.contacts.read', { action: { arguments: { id: 7, note: 'Ada Lovelace' } }, context: { ticket: 'T-1' } });
      const allowed = await call(reader, own.credential, sent);
      const denied = await call(reader, own.credential, body('crm.contacts.purge'));
      expect([allowed.status, denied.status]).toEqual([200, 403]);
      // Durable before the answer: the call is there as soon as the decision is.
      const listed = await reader.get(`/v1/mcp-proxy/decisions?cred_id=${own.cred_id}&include=call`);
      expect(listed.status).toBe(200);
      expect(listed.body.data.map((d: { decision_id: string; call: unknown }) => [d.decision_id, d.call])).toEqual([
        [denied.body.decision.decision_id, { action: body('crm.contacts.purge').action, context: body('crm.contacts.purge').context }],
        [allowed.body.decision.decision_id, { action: sent.action, context: sent.context }],
      ]);
      // Without include the list is as it was: no call.
      const plain = await reader.get(`/v1/mcp-proxy/decisions?cred_id=${own.cred_id}`);
      expect(plain.body.data.every((d: object) => !('call' in d))).toBe(true);
      // Another org never sees them, by mandate or otherwise.
      expect((await otherOrg.get(`/v1/mcp-proxy/decisions?cred_id=${own.cred_id}&include=call`)).body.data).toEqual([]);
      const theirs = await otherOrg.get('/v1/mcp-proxy/decisions?include=call&limit=200');
      expect(JSON.stringify(theirs.body)).not.toContain('Ada Lovelace');
      // A bad include is a 400 naming it.
      for (const q of ['include=calls', 'include=call&include=call']) {
        const bad = await reader.get(`/v1/mcp-proxy/decisions?${q}`);
        expect({ status: bad.status, code: bad.body.code, paths: bad.body.details?.map((d: { path: string }) => d.path) }).toEqual({
          status: 400,
          code: 'invalid_request',
          paths: ['include'],
        });
      }
    });

    it('evaluates CEL over the arguments (first match wins)', async () => {
      const res = await call(reader, mandate.credential, body('crm.contacts.read', { action: { arguments: { amount: 20000 } } }));
      expect(res.status).toBe(403);
      expect(res.body.decision).toMatchObject({ kind: 'deny', rule_id: 'big-amount', reason: 'amount_limit' });
    });

    it('step_up is satisfied by a mandate whose acr meets the rule', async () => {
      const strong = await dispense({ context: { acr: 'hwk' } });
      const res = await call(reader, strong.credential, body('crm.payments.send'));
      expect(res.status).toBe(200);
      expect(res.body.decision).toMatchObject({ kind: 'allow', rule_id: 'step-up-pay' });
    });

    it('defer: proceeds with 202 and a review_id the operator finds on the review queue and resolves once', async () => {
      const res = await call(reader, mandate.credential, body('crm.contacts.merge'));
      expect(res.status).toBe(202);
      expect(res.body.decision).toEqual({ kind: 'defer', decision_id: expect.any(String), rule_id: 'defer-merge', review_id: expect.stringMatching(/^rev_/) });
      const reviewId = res.body.decision.review_id;
      const list = await reader.get('/v1/mcp-proxy/reviews?status=pending');
      expect(list.status).toBe(200);
      expect(list.body.data.map((r: { review_id: string }) => r.review_id)).toContain(reviewId);
      expect((await otherOrg.get('/v1/mcp-proxy/reviews')).body.data).toEqual([]);
      expect((await reader.post(`/v1/mcp-proxy/reviews/${reviewId}/resolve`, { status: 'accepted' })).status).toBe(403);
      const resolved = await approver.post(`/v1/mcp-proxy/reviews/${reviewId}/resolve`, { status: 'accepted', note: 'fine' });
      expect(resolved.status).toBe(200);
      expect(resolved.body).toMatchObject({ review_id: reviewId, status: 'accepted', note: 'fine', operation: 'crm.contacts.merge' });
      expect((await approver.post(`/v1/mcp-proxy/reviews/${reviewId}/resolve`, { status: 'rejected' })).status).toBe(409);
      expect((await otherOrg.post(`/v1/mcp-proxy/reviews/${reviewId}/resolve`, { status: 'rejected' })).status).toBe(404);
      expect((await approver.post(`/v1/mcp-proxy/reviews/${reviewId}/resolve`, { status: 'maybe' })).body).toMatchObject({
        code: 'invalid_request',
        message: expect.stringContaining('status'),
      });
    });

    it('approval: 428 with an approval request; after approval the same action passes once', async () => {
      const refund = body('crm.refunds.create', { action: { arguments: { order: 'o-1', amount: 30 } } });
      const first = await call(writer, mandate.credential, refund);
      expect(first.status).toBe(428);
      expect(first.body.decision).toEqual({
        kind: 'approval',
        decision_id: expect.any(String),
        rule_id: 'approve-refund',
        approval_request_id: expect.any(String),
      });
      const requestId = first.body.decision.approval_request_id;
      const approval = await reader.get(`/v1/approvals/${requestId}`);
      expect(approval.body).toMatchObject({ status: 'pending', source: 'mcp_proxy', intent_card_id: cardId, operation: 'crm.refunds.create' });
      expect(approval.body).toMatchObject({ reason_code: null, candidates: [], tool_call: null });
      // Teaching is for evaluated calls (DESIGN 6.15): a mandate-path request refuses it, naming the field, and stays pending.
      for (const [action, field, value] of [
        ['approve', 'remember', true],
        ['approve', 'intent_label', 'crm.refunds'],
        ['deny', 'remember', true],
      ] as const) {
        const refused = await approver.post(`/v1/approvals/${requestId}/${action}`, { [field]: value });
        expect({ status: refused.status, code: refused.body.code, paths: refused.body.details?.map((d: { path: string }) => d.path) }).toEqual({
          status: 400,
          code: 'invalid_request',
          paths: [field],
        });
      }
      // Asking again while it waits: the same request.
      expect((await call(writer, mandate.credential, refund)).body.decision.approval_request_id).toBe(requestId);
      expect((await approver.post(`/v1/approvals/${requestId}/approve`)).status).toBe(200);
      // Another action (other arguments) is not covered by it.
      const other = await call(writer, mandate.credential, body('crm.refunds.create', { action: { arguments: { amount: 30, order: 'o-2' } } }));
      expect(other.status).toBe(428);
      // Same action, arguments in another key order: passes, once.
      const passed = await call(writer, mandate.credential, body('crm.refunds.create', { action: { arguments: { amount: 30, order: 'o-1' } } }));
      expect(passed.status).toBe(200);
      expect(passed.body.decision).toMatchObject({ kind: 'allow', rule_id: 'approve-refund', approval_request_id: requestId });
      const again = await call(writer, mandate.credential, refund);
      expect(again.status).toBe(428);
      expect(again.body.decision.approval_request_id).not.toBe(requestId);
    });

    it('scope: a forbidden operation is denied; outside the mandate is negotiated when an in-scope variant exists, else denied', async () => {
      const forbidden = await call(reader, mandate.credential, body('crm.contacts.purge'));
      expect(forbidden.status).toBe(403);
      expect(forbidden.body.decision).toMatchObject({ kind: 'deny', reason: 'forbidden_operation' });
      expect(forbidden.body.decision.rule_id).toBeUndefined();

      const narrow = await dispense({ requested_scope: { operations: ['crm.contacts.read', 'crm.contacts.search'], resources: ['crm://contacts/*'] } });
      const negotiated = await call(reader, narrow.credential, body('crm.contacts.export_csv'));
      expect(negotiated.status).toBe(202);
      expect(negotiated.body.decision).toMatchObject({
        kind: 'negotiate',
        suggested_action: { operation: 'crm.contacts.read', target_resource: 'crm://contacts/42' },
        message: expect.any(String),
      });
      const outside = await call(reader, narrow.credential, body('billing.read'));
      expect(outside.status).toBe(403);
      expect(outside.body.decision).toMatchObject({ kind: 'deny', reason: 'scope_outside_intent' });
    });

    it('confused deputy: another actor or another prompt than the mandate names is denied', async () => {
      for (const context of [{ actor: 'agent:other' }, { actor: undefined, on_behalf_of: ['agent:other'] }, { prompt_id: 'prm_other' }]) {
        const res = await call(reader, mandate.credential, body('crm.contacts.read', { context }));
        expect(res.status).toBe(403);
        expect(res.body.decision).toMatchObject({ kind: 'deny', reason: 'confused_deputy' });
      }
    });

    it('a mandate bound to no prompt: the prompt check is skipped (the actor check is not), and the answer and the record say prompt_id null', async () => {
      const unbound = await dispense({ prompt_id: undefined });
      const res = await call(reader, unbound.credential, body('crm.contacts.read', { context: { prompt_id: 'prm_any' } }));
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        decision: { kind: 'allow', decision_id: expect.stringMatching(/^dec_/) },
        mandate: { cred_id: unbound.cred_id, prompt_id: null, intent_id: cardId },
      });
      const deputy = await call(reader, unbound.credential, body('crm.contacts.read', { context: { actor: 'agent:other', prompt_id: 'prm_any' } }));
      expect(deputy.body.decision).toMatchObject({ kind: 'deny', reason: 'confused_deputy' });
      let rec: JsonResponse | undefined;
      for (let i = 0; i < 50; i++) {
        rec = await reader.get(`/v1/mcp-proxy/decisions/${res.body.decision.decision_id}`);
        if (rec.status === 200) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(rec!.body).toMatchObject({ decision_id: res.body.decision.decision_id, cred_id: unbound.cred_id, prompt_id: null });
    });

    it('shadow: a card in shadow mode lets a blocking decision through as allow_with_shadow', async () => {
      expect((await writer.post('/v1/intent-cards', { ...card({ id: 'crm-shadow', shadow: true }) })).status).toBe(201);
      const shadowMandate = await dispense({ intent_id: 'crm-shadow' });
      const res = await call(reader, shadowMandate.credential, body('crm.contacts.export'));
      expect(res.status).toBe(200);
      expect(res.body.decision).toEqual({
        kind: 'allow_with_shadow',
        decision_id: expect.any(String),
        rule_id: 'deny-export',
        shadow_decision: { kind: 'deny', reason: 'bulk_export', message: 'bulk export is not allowed' },
      });
    });

    it('401 mandate_invalid: missing, malformed, forged and attacking tokens', async () => {
      const realKid = decodeProtectedHeader(mandate.credential).kid!;
      const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
      const now = Math.floor(Date.now() / 1000);
      const claims = JSON.parse(Buffer.from(mandate.credential.split('.')[1]!, 'base64url').toString());
      const jwks = (await client(sys.url).get('/v1/mandate/jwks')).body;
      const publicJwk = jwks.keys.find((k: { kid: string }) => k.kid === realKid);
      const [h, p] = mandate.credential.split('.');
      const hsWithPublicKey = (() => {
        const header = b64({ alg: 'HS256', typ: 'mandate+jwt', kid: realKid });
        const input = `${header}.${p}`;
        return `${input}.${createHmac('sha256', JSON.stringify(publicJwk)).update(input).digest('base64url')}`;
      })();
      const tokens: Record<string, string | undefined> = {
        missing: undefined,
        empty: '',
        garbage: 'not-a-jwt',
        'alg none': `${b64({ alg: 'none', typ: 'mandate+jwt', kid: realKid })}.${p}.`,
        'HS256 with the public key': hsWithPublicKey,
        'forged kid': forgeRs256({ alg: 'RS256', typ: 'mandate+jwt', kid: 'attacker-key' }, claims, privateKey),
        'real kid, attacker signature': forgeRs256({ alg: 'RS256', typ: 'mandate+jwt', kid: realKid }, { ...claims, exp: now + 3600 }, privateKey),
        'jku header': forgeRs256({ alg: 'RS256', typ: 'mandate+jwt', kid: realKid, jku: 'http://127.0.0.1:1/jwks' }, claims, privateKey),
        'x5u header': forgeRs256({ alg: 'RS256', typ: 'mandate+jwt', kid: realKid, x5u: 'http://127.0.0.1:1/cert' }, claims, privateKey),
        'jwk header': forgeRs256({ alg: 'RS256', typ: 'mandate+jwt', kid: realKid, jwk: publicJwk }, claims, privateKey),
        'missing exp': forgeRs256({ alg: 'RS256', typ: 'mandate+jwt', kid: realKid }, { ...claims, exp: undefined }, privateKey),
        'wrong typ': forgeRs256({ alg: 'RS256', typ: 'JWT', kid: realKid }, claims, privateKey),
        'tampered payload': `${h}.${b64({ ...claims, scope: { operations: ['**'], resources: ['**'], forbidden_operations: [] } })}.${mandate.credential.split('.')[2]}`,
      };
      for (const [name, token] of Object.entries(tokens)) {
        const res = await call(reader, token, body('crm.contacts.read'));
        expect({ name, status: res.status, code: res.body?.code }).toEqual({ name, status: 401, code: 'mandate_invalid' });
      }
      const wrongAud = await call(reader, mandate.credential, body('crm.contacts.read', { audience: 'billing-api' }));
      expect(wrongAud.status).toBe(401);
      expect(wrongAud.body.code).toBe('mandate_invalid');
      // Without an API key nothing is looked at.
      expect((await call(client(sys.url), mandate.credential, body('crm.contacts.read'))).status).toBe(401);
    });

    it("403 mandate_org_mismatch: a valid mandate under another org's key", async () => {
      const res = await call(otherOrg, mandate.credential, body('crm.contacts.read'));
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('mandate_org_mismatch');
    });

    it('400 invalid_request names the field', async () => {
      const missing = await call(reader, mandate.credential, { audience: 'crm-api', context: {} });
      expect(missing.status).toBe(400);
      expect(missing.body).toMatchObject({
        code: 'invalid_request',
        message: 'action is required',
        details: [{ path: 'action', message: 'action is required' }],
      });
      const noOp = await call(reader, mandate.credential, { action: { surface: 'sdk' }, audience: 'crm-api' });
      expect(noOp.status).toBe(400);
      expect(noOp.body).toMatchObject({
        message: 'action.operation is required',
        details: [{ path: 'action.operation', message: 'action.operation is required' }],
      });
      const noAudience = await call(reader, mandate.credential, { action: { surface: 'sdk', operation: 'crm.contacts.read' } });
      expect(noAudience.body).toMatchObject({ code: 'invalid_request', message: 'audience is required' });
      let deep: unknown = 1;
      for (let i = 0; i < 80; i++) deep = { d: deep };
      const tooDeep = await call(reader, mandate.credential, body('crm.contacts.read', { action: { arguments: deep } }));
      expect(tooDeep.status).toBe(400);
      expect(tooDeep.body.message).toContain('action.arguments');
    });

    it('a revoked mandate is refused on the very next call, on another replica too', async () => {
      const m = await dispense();
      expect((await call(reader, m.credential, body('crm.contacts.read'))).status).toBe(200);
      // Warm the other replica with this mandate, then revoke through the first.
      expect((await call(writerB, m.credential, body('crm.contacts.read'))).status).toBe(200);
      expect((await writer.post('/v1/mandate/revoke', { cred_id: m.cred_id })).status).toBe(200);
      const after = await call(writerB, m.credential, body('crm.contacts.read'));
      expect(after.status).toBe(401);
      expect(after.body.code).toBe('mandate_invalid');
      expect((await call(writer, m.credential, body('crm.contacts.read'))).status).toBe(401);
    });

    it('a changed or deleted card decides the very next call, on another replica too', async () => {
      expect((await writer.post('/v1/intent-cards', card({ id: 'crm-change', rules: [] }))).status).toBe(201);
      const cm = await dispense({ intent_id: 'crm-change' });
      expect((await call(writerB, cm.credential, body('crm.contacts.read'))).status).toBe(200);
      expect(
        (await writer.post('/v1/intent-cards', card({ id: 'crm-change', rules: [rule('block-read', 'crm.contacts.read', { kind: 'deny' })] }))).status,
      ).toBe(200);
      const changed = await call(writerB, cm.credential, body('crm.contacts.read'));
      expect(changed.status).toBe(403);
      expect(changed.body.decision).toMatchObject({ kind: 'deny', rule_id: 'block-read', reason: 'rule_denied' });
      expect((await writer.delete('/v1/intent-cards/crm-change')).status).toBe(204);
      const gone = await call(writerB, cm.credential, body('crm.contacts.read'));
      expect(gone.status).toBe(404);
      expect(gone.body.code).toBe('intent_not_found');
    });

    it('a removed card installed again under its id decides with its new rules, never the removed ones', async () => {
      expect((await writer.post('/v1/intent-cards', card({ id: 'crm-again', rules: [] }))).status).toBe(201);
      const cm = await dispense({ intent_id: 'crm-again' });
      expect((await call(writerB, cm.credential, body('crm.contacts.read'))).status).toBe(200);
      expect((await writer.delete('/v1/intent-cards/crm-again')).status).toBe(204);
      const back = await writer.post('/v1/intent-cards', card({ id: 'crm-again', rules: [rule('block-read', 'crm.contacts.read', { kind: 'deny' })] }));
      expect(back.status).toBe(201);
      expect(back.body.version).toBe(3);
      const decided = await call(writerB, cm.credential, body('crm.contacts.read'));
      expect(decided.status).toBe(403);
      expect(decided.body.decision).toMatchObject({ kind: 'deny', rule_id: 'block-read', reason: 'rule_denied' });
    });
  });
}
