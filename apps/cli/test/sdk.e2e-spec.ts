import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GatewayClient, GatewayError, MandateVerificationError, createMandateVerifier, type MandateRejection } from '@igw/sdk';
import { REPO_ROOT, cardBody, startEmbeddedSystem, type TestSystem } from '@igw/testing';

/**
 * @igw/sdk against a real embedded system: its checked-in OpenAPI document and types are those
 * the running system serves, its helpers drive both enforcement paths, and its local verifier
 * accepts exactly the mandates the gateway's JWKS vouches for.
 */
describe('@igw/sdk (embedded)', () => {
  let sys: TestSystem;
  let sdk: GatewayClient;
  const scope = { operations: ['crm.contacts.read'], resources: ['crm://contacts/*'], forbidden_operations: ['crm.contacts.delete'] };
  const card = cardBody('sdk-crm', 'SDK CRM assistant', scope, 600);
  const dispenseBody = (extra: Record<string, unknown> = {}) => ({
    actor: 'agent:sdk',
    intent_id: card.id,
    requested_scope: { operations: ['crm.contacts.read'], resources: ['crm://contacts/*'] },
    audience: 'crm-api',
    ...extra,
  });

  beforeAll(async () => {
    sys = await startEmbeddedSystem();
    sdk = new GatewayClient({ baseUrl: sys.url, apiKey: sys.adminKey });
  });

  afterAll(async () => {
    await sys?.stop();
  });

  it('the checked-in OpenAPI document and generated types are not stale (else: npm run sdk:generate)', async () => {
    const served = await (await fetch(`${sys.url}/v1/openapi.json`)).json();
    const checkedIn = JSON.parse(readFileSync(join(REPO_ROOT, 'libs/sdk/openapi.json'), 'utf8'));
    expect(checkedIn).toEqual(served);
    const doc = join(mkdtempSync(join(tmpdir(), 'igw-sdk-')), 'openapi.json');
    writeFileSync(doc, JSON.stringify(served));
    const rendered = execFileSync(process.execPath, [join(REPO_ROOT, 'libs/sdk/scripts/generate.mjs'), '--print', doc], { cwd: REPO_ROOT, encoding: 'utf8' });
    expect(rendered).toBe(readFileSync(join(REPO_ROOT, 'libs/sdk/src/generated/api.ts'), 'utf8'));
  });

  it('legacy path: evaluate gives the outcome and a grant that verifies; history and approvals page through', async () => {
    const lookup = await sdk.createIntention({
      label: 'sdk.crm_lookup',
      intent_class: 'lookup',
      display_name: 'CRM lookup',
      description: 'Look up CRM contacts',
    });
    expect(lookup.status).toBe('draft');
    expect((await sdk.publishIntention(lookup.id)).status).toBe('active');
    expect((await sdk.updateIntention(lookup.id, { tools: ['sdk.crm_*'] })).tools).toEqual(['sdk.crm_*']);
    const taught = await sdk.addIntentionExample(lookup.id, { tool_call: { name: 'sdk.crm_find', arguments: { q: 'x' } }, covered: true });
    const examples = [];
    for await (const e of sdk.intentionExamples(lookup.id)) examples.push(e.id);
    expect(examples).toEqual([taught.id]);
    await sdk.removeIntentionExample(lookup.id, taught.id);
    await sdk.updateIntention(lookup.id, { tools: [] });
    const call = { name: 'sdk.crm_lookup_contact', arguments: { q: 'ada' } };
    const evaluation = await sdk.evaluate(call, { user_id: 'u_sdk' });
    expect(evaluation).toMatchObject({ outcome: 'allowed', intent_label: 'sdk.crm_lookup', grant: expect.any(String) });
    expect(await sdk.verifyGrant(evaluation.grant as string, call)).toMatchObject({ valid: true });

    const refund = await sdk.createIntention({
      label: 'billing.refund_issue',
      display_name: 'Issue a refund',
      description: 'Refund a Stripe charge for a customer.',
      intent_class: 'write',
      approval_required: true,
      ttl_minutes: 5,
    });
    await sdk.publishIntention(refund.id);
    // The key whose call asked for the approval cannot decide it: an agent's own key evaluates.
    const agentKey = (await sdk.api.POST('/v1/api-keys', { body: { name: 'agent', scope: 'policy_write' } })).data?.key as string;
    const agent = new GatewayClient({ baseUrl: sys.url, apiKey: agentKey });
    const pending = await agent.evaluate({ name: 'stripe.create_refund', arguments: { charge: 'ch_42', amount: 500 } });
    expect(pending).toMatchObject({ outcome: 'pending_approval', approval_request_id: expect.stringMatching(/^apr_/) });
    const listed = [];
    for await (const a of sdk.approvals({ status: 'pending', limit: 1 })) listed.push(a.id);
    expect(listed).toContain(pending.approval_request_id);
    expect(await sdk.approve(pending.approval_request_id as string)).toMatchObject({ status: 'approved' });

    // Pages of one: the iterator follows next_cursor through every event.
    const seen: string[] = [];
    for await (const e of sdk.history({ limit: 1 })) seen.push(e.id);
    expect(seen).toEqual(expect.arrayContaining([evaluation.intent_event_id, pending.intent_event_id]));
    expect(new Set(seen).size).toBe(seen.length);
    const names: string[] = [];
    for await (const i of sdk.intentions({ limit: 1 })) names.push(i.label);
    expect(names.sort()).toEqual(['billing.refund_issue', 'sdk.crm_lookup']);
  });

  it('mandate path: dispense, call (allow and deny returned as decisions), refresh, revoke, inspect; errors are GatewayErrors', async () => {
    await sdk.installCard(card as never);
    const m = await sdk.dispense(dispenseBody({ ttl_seconds: 60 }) as never);
    const session = sdk.withMandate(m.credential);
    const allowed = await session.call({ surface: 'sdk', operation: 'crm.contacts.read', target_resource: 'crm://contacts/42' });
    expect(allowed).toMatchObject({ status: 200, decision: { kind: 'allow' }, mandate: { cred_id: m.cred_id } });
    const denied = await session.call({ surface: 'sdk', operation: 'crm.contacts.delete', target_resource: 'crm://contacts/42' });
    expect(denied).toMatchObject({ status: 403, decision: { kind: 'deny' } });
    const refreshed = await sdk.refresh(m.cred_id, 120);
    expect(refreshed).toMatchObject({ cred_id: m.cred_id, ttl_seconds: 120 });
    const cooldown = await sdk.refresh(m.cred_id).catch((e: unknown) => e);
    expect(cooldown).toBeInstanceOf(GatewayError);
    expect(cooldown).toMatchObject({ status: 429, code: 'cooldown', retryAfterSeconds: expect.any(Number) });
    expect(await sdk.revoke(m.cred_id, 'done')).toMatchObject({ cred_id: m.cred_id, status: 'revoked' });
    expect(await sdk.inspectMandate(m.cred_id)).toMatchObject({ cred_id: m.cred_id, status: 'revoked' });
    await expect(session.call({ surface: 'sdk', operation: 'crm.contacts.read' })).rejects.toMatchObject({ status: 401, code: 'mandate_invalid' });
    await expect(sdk.inspectMandate('cred_nope')).rejects.toMatchObject({ status: 404 });
    const beyond = await sdk
      .dispense(dispenseBody({ requested_scope: { operations: ['crm.deals.write'], resources: ['crm://deals/*'] } }) as never)
      .catch((e) => e);
    expect(beyond).toMatchObject({ status: 403, code: 'mandate_violation', body: { suggested_scope: expect.any(Object) } });
  });

  describe('local mandate verifier against the gateway JWKS', () => {
    const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
    const parts = (t: string) => t.split('.') as [string, string, string];
    const header = (t: string) => JSON.parse(Buffer.from(parts(t)[0], 'base64url').toString());
    const reason = async (p: Promise<unknown>): Promise<MandateRejection | 'ok'> =>
      p.then(
        () => 'ok' as const,
        (e: unknown) => {
          if (e instanceof MandateVerificationError) return e.reason;
          throw e;
        },
      );
    let credential: string;
    const verifier = () => createMandateVerifier({ baseUrl: sys.url, audience: 'crm-api' });

    beforeAll(async () => {
      credential = (await sdk.dispense(dispenseBody({ prompt_id: 'prm_1', context: { acr: 'mfa' } }) as never)).credential;
    });

    it('a valid mandate verifies, with its claims', async () => {
      const claims = await verifier().verify(credential);
      expect(claims).toMatchObject({ iss: 'intent-gateway', sub: 'agent:sdk', aud: 'crm-api', intent_id: card.id, prompt_id: 'prm_1', acr: 'mfa' });
      expect(claims.org).toMatch(/^org_/);
      expect(claims.scope.operations).toEqual(['crm.contacts.read']);
    });

    it('rejects a wrong audience, a tampered payload or signature, an unknown kid, alg none and an HMAC forgery', async () => {
      const v = verifier();
      const [h, p, s] = parts(credential);
      expect(await reason(v.verify(credential, { audience: 'billing-api' }))).toBe('audience');
      expect(await reason(createMandateVerifier({ baseUrl: sys.url, audience: 'billing-api' }).verify(credential))).toBe('audience');
      const payload = JSON.parse(Buffer.from(p, 'base64url').toString());
      expect(await reason(v.verify(`${h}.${b64({ ...payload, scope: { ...payload.scope, operations: ['crm.**'] } })}.${s}`))).toBe('signature');
      const flipped = s.slice(0, 10) + (s[10] === 'A' ? 'B' : 'A') + s.slice(11);
      expect(await reason(v.verify(`${h}.${p}.${flipped}`))).toBe('signature');
      expect(await reason(v.verify(`${b64({ ...header(credential), kid: 'no-such-kid' })}.${p}.${s}`))).toBe('kid');
      expect(await reason(v.verify(`${b64({ alg: 'none', typ: 'mandate+jwt', kid: header(credential).kid })}.${p}.`))).toBe('alg');
      expect(await reason(v.verify(`${b64({ ...header(credential), alg: 'HS256' })}.${p}.${s}`))).toBe('alg');
      expect(await reason(v.verify(`${b64({ ...header(credential), typ: 'JWT' })}.${p}.${s}`))).toBe('typ');
      expect(await reason(v.verify('not-a-jwt'))).toBe('malformed');
      // The allowlist never admits none or HMAC, whatever it is given.
      expect(() => createMandateVerifier({ baseUrl: sys.url, audience: 'crm-api', algorithms: ['none', 'HS256'] })).toThrow(/no acceptable algorithm/);
    });

    it('rejects an expired mandate', async () => {
      const short = await sdk.dispense(dispenseBody({ ttl_seconds: 1 }) as never);
      await new Promise((r) => setTimeout(r, 2100));
      const strict = createMandateVerifier({ baseUrl: sys.url, audience: 'crm-api', clockToleranceSeconds: 0 });
      expect(await reason(strict.verify(short.credential))).toBe('expired');
    });
  });
});
