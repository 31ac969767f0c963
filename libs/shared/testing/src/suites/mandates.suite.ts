import { createPublicKey, verify } from 'node:crypto';
import { createLocalJWKSet, decodeProtectedHeader, jwtVerify } from 'jose';
import { client, type Client } from '../e2e/http-client';
import { cardBody } from '../e2e/mandate-fixtures';
import { suiteClients } from '../e2e/org-keys';
import type { TestSystem } from '../e2e/system';

/**
 * Mandates over HTTP (spec: dispense, refresh, revoke, inspect, JWKS; DESIGN 6.8), the same in
 * every mode. Mandates are verified with jose against the JWKS the gateway publishes, as a
 * downstream verifier would.
 */
export function describeMandates(mode: string, start: () => Promise<TestSystem>) {
  describe(`mandates (${mode})`, () => {
    let sys: TestSystem;
    let writer: Client;
    let reader: Client;
    let otherOrg: Client;

    const scope = { operations: ['crm.contacts.read', 'crm.contacts.search'], resources: ['crm://contacts/*'], forbidden_operations: ['crm.contacts.delete'] };
    const card = cardBody('crm-assistant', 'CRM assistant', scope, 600);
    const dispenseBody = (extra: Record<string, unknown> = {}) => ({
      actor: 'agent:support-bot',
      intent_id: card.id,
      prompt_id: 'prm_1',
      requested_scope: { operations: ['crm.contacts.read'], resources: ['crm://contacts/*'] },
      audience: 'crm-api',
      context: { acr: 'mfa', ticket: 'T-1' },
      ...extra,
    });
    const jwks = async () => createLocalJWKSet((await client(sys.url).get('/v1/mandate/jwks')).body);

    beforeAll(async () => {
      sys = await start();
      ({ writer, readOnly: reader, otherOrg } = await suiteClients(sys, 'reader'));
      expect((await writer.post('/v1/intent-cards', card)).status).toBe(201);
    });

    afterAll(async () => {
      await sys?.stop();
    });

    it('publishes the JWKS without a key, cacheable, with an ETag that answers 304', async () => {
      const res = await client(sys.url).get('/v1/mandate/jwks');
      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control')).toBe('public, max-age=60');
      const etag = res.headers.get('etag');
      expect(etag).toMatch(/^".+"$/);
      expect(res.body.keys.length).toBeGreaterThanOrEqual(1);
      for (const k of res.body.keys) {
        expect(Object.keys(k).sort()).toEqual(['alg', 'e', 'kid', 'kty', 'n', 'use']);
        expect(k).toMatchObject({ kty: 'RSA', alg: 'RS256', use: 'sig' });
        expect(Buffer.from(k.n, 'base64url').length).toBeGreaterThanOrEqual(256);
      }
      const again = await fetch(`${sys.url}/v1/mandate/jwks`, { headers: { 'if-none-match': etag! } });
      expect(again.status).toBe(304);
    });

    it('dispenses an RS256 mandate+jwt with the claims of DESIGN 6.8, verifiable against the published JWKS', async () => {
      const res = await writer.post('/v1/mandate/dispense', dispenseBody({ classification_evidence: { intent_id: card.id, confidence: 0.9 } }));
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ credential: expect.any(String), cred_id: expect.stringMatching(/^cred_/), expires_at: expect.any(String), ttl_seconds: 300 });
      const header = decodeProtectedHeader(res.body.credential);
      expect(header).toMatchObject({ alg: 'RS256', typ: 'mandate+jwt', kid: expect.any(String) });
      // Independently of jose: RSASSA-PKCS1-v1_5 with SHA-256 over `header.payload`, with the published key of that kid.
      const published = (await client(sys.url).get('/v1/mandate/jwks')).body.keys.find((k: { kid: string }) => k.kid === header.kid);
      const [h, p, sig] = (res.body.credential as string).split('.');
      expect(verify('sha256', Buffer.from(`${h}.${p}`), createPublicKey({ key: published, format: 'jwk' }), Buffer.from(sig!, 'base64url'))).toBe(true);
      const { payload } = await jwtVerify(res.body.credential, await jwks(), { algorithms: ['RS256'], audience: 'crm-api', typ: 'mandate+jwt' });
      expect(payload).toMatchObject({
        iss: 'intent-gateway',
        sub: 'agent:support-bot',
        aud: 'crm-api',
        intent_id: card.id,
        prompt_id: 'prm_1',
        scope: { operations: ['crm.contacts.read'], resources: ['crm://contacts/*'], forbidden_operations: ['crm.contacts.delete'] },
        ctx: { acr: 'mfa', ticket: 'T-1' },
        acr: 'mfa',
        jti: res.body.cred_id,
      });
      expect(payload['org']).toMatch(/^org_/);
      expect(payload.exp! - payload.iat!).toBe(300);
      expect(payload.nbf).toBe(payload.iat);
      expect(new Date(res.body.expires_at).getTime()).toBe(payload.exp! * 1000);

      const view = await reader.get(`/v1/mandate/${res.body.cred_id}`);
      expect(view.status).toBe(200);
      expect(view.body).toMatchObject({
        cred_id: res.body.cred_id,
        actor: 'agent:support-bot',
        status: 'active',
        refresh_count: 0,
        revoked_at: null,
        broker: null,
        classification_evidence: { intent_id: card.id, confidence: 0.9 },
      });
      expect(JSON.stringify(view.body)).not.toContain(res.body.credential.split('.')[2]);
      expect((await otherOrg.get(`/v1/mandate/${res.body.cred_id}`)).status).toBe(404);
      // A mandate is never a valid grant.
      expect((await reader.post('/v1/grants/verify', { token: res.body.credential })).body).toMatchObject({ valid: false });
    });

    it('clamps the TTL to the card, refuses a scope beyond it with suggested_scope, and checks the caller', async () => {
      expect((await writer.post('/v1/mandate/dispense', dispenseBody({ ttl_seconds: 99_999 }))).body.ttl_seconds).toBe(600);
      const beyond = await writer.post(
        '/v1/mandate/dispense',
        dispenseBody({
          requested_scope: { operations: ['crm.contacts.read', 'crm.contacts.delete', 'crm.deals.write'], resources: ['crm://contacts/*', 'crm://deals/*'] },
        }),
      );
      expect(beyond.status).toBe(403);
      expect(beyond.body).toMatchObject({ code: 'mandate_violation', message: expect.any(String) });
      expect(beyond.body.suggested_scope).toEqual({
        operations: ['crm.contacts.read'],
        resources: ['crm://contacts/*'],
        forbidden_operations: ['crm.contacts.delete'],
      });
      // Each item beyond the card is named, with why; the message leads with the first.
      expect(beyond.body.details.map((d: { path: string }) => d.path)).toEqual([
        'requested_scope.operations[1]',
        'requested_scope.operations[2]',
        'requested_scope.resources[1]',
      ]);
      expect(beyond.body.details[1].message).toContain('crm.deals.write');
      expect(beyond.body.message).toContain(beyond.body.details[0].message);
      expect((await writer.post('/v1/mandate/dispense', dispenseBody({ audience: 'billing-api' }))).body.code).toBe('mandate_violation');
      expect((await writer.post('/v1/mandate/dispense', dispenseBody({ intent_id: 'no-such-card' }))).body.code).toBe('intent_not_found');
      const foreign = await client(sys.url, (await otherOrg.post('/v1/api-keys', { name: 'w', scope: 'policy_write' })).body.key).post(
        '/v1/mandate/dispense',
        dispenseBody(),
      );
      expect(foreign).toMatchObject({ status: 404, body: { code: 'intent_not_found' } });
      expect((await reader.post('/v1/mandate/dispense', dispenseBody())).body.code).toBe('insufficient_scope');
      for (const [body, path] of [
        [dispenseBody({ actor: '' }), 'actor'],
        [dispenseBody({ ttl_seconds: 0 }), 'ttl_seconds'],
        [dispenseBody({ requested_scope: { operations: 'crm.contacts.read', resources: [] } }), 'requested_scope.operations'],
        [dispenseBody({ broker_dispense: { kind: 'keychain' } }), 'broker_dispense.kind'],
        [dispenseBody({ colour: 'red' }), 'colour'],
      ] as const) {
        const res = await writer.post('/v1/mandate/dispense', body);
        expect({ path, status: res.status, code: res.body.code }).toEqual({ path, status: 400, code: 'invalid_request' });
        expect(res.body.details.map((d: { path: string }) => d.path)).toContain(path);
      }
      // A broker kind this gateway has not configured is the caller's mistake, not an outage.
      const unconfigured = await writer.post('/v1/mandate/dispense', dispenseBody({ broker_dispense: { kind: 'conjur' } }));
      expect(unconfigured).toMatchObject({ status: 400, body: { code: 'invalid_request' } });
    });

    it('prompt_id is optional: a mandate bound to no prompt has no prompt_id claim and inspects as prompt_id null, also after a refresh', async () => {
      const { prompt_id: _prompt, ...body } = dispenseBody();
      const res = await writer.post('/v1/mandate/dispense', body);
      expect(res.status).toBe(200);
      const { payload } = await jwtVerify(res.body.credential, await jwks(), { algorithms: ['RS256'], audience: 'crm-api', typ: 'mandate+jwt' });
      expect(payload).toMatchObject({ sub: 'agent:support-bot', intent_id: card.id, jti: res.body.cred_id });
      expect(payload).not.toHaveProperty('prompt_id');
      expect((await reader.get(`/v1/mandate/${res.body.cred_id}`)).body).toMatchObject({ cred_id: res.body.cred_id, prompt_id: null, status: 'active' });
      const refreshed = await writer.post('/v1/mandate/refresh', { cred_id: res.body.cred_id });
      expect(refreshed.status).toBe(200);
      expect((await jwtVerify(refreshed.body.credential, await jwks(), { algorithms: ['RS256'], audience: 'crm-api' })).payload).not.toHaveProperty(
        'prompt_id',
      );
      expect((await writer.post('/v1/mandate/dispense', { ...body, prompt_id: null })).status).toBe(200);
      expect((await writer.post('/v1/mandate/dispense', { ...body, prompt_id: '' })).body).toMatchObject({
        code: 'invalid_request',
        details: [{ path: 'prompt_id' }],
      });
    });

    it('a dispense without a required field (actor, intent_id, requested_scope, audience) says the field is required', async () => {
      for (const field of ['actor', 'intent_id', 'requested_scope', 'audience'] as const) {
        const { [field]: _left, ...body } = dispenseBody();
        const res = await writer.post('/v1/mandate/dispense', body);
        expect({ field, status: res.status, body: res.body }).toEqual({
          field,
          status: 400,
          body: { code: 'invalid_request', message: `${field} is required`, details: [{ path: field, message: `${field} is required` }] },
        });
      }
      const noOperations = await writer.post('/v1/mandate/dispense', dispenseBody({ requested_scope: { resources: ['crm://contacts/*'] } }));
      expect(noOperations.body).toMatchObject({ code: 'invalid_request', message: 'requested_scope.operations is required' });
      expect((await writer.post('/v1/mandate/refresh', {})).body).toMatchObject({ code: 'invalid_request', message: 'cred_id is required' });
      expect((await writer.post('/v1/mandate/revoke', { reason: 'x' })).body).toMatchObject({ code: 'invalid_request', message: 'cred_id is required' });
    });

    it('refresh: same cred_id and a later exp, then a cooldown; revoke is idempotent; a revoked or expired mandate cannot be refreshed', async () => {
      const first = (await writer.post('/v1/mandate/dispense', dispenseBody({ ttl_seconds: 60 }))).body;
      const refreshed = await writer.post('/v1/mandate/refresh', { cred_id: first.cred_id, ttl_seconds: 120 });
      expect(refreshed.status).toBe(200);
      expect(refreshed.body).toMatchObject({ cred_id: first.cred_id, ttl_seconds: 120, refresh_count: 1 });
      const { payload } = await jwtVerify(refreshed.body.credential, await jwks(), { algorithms: ['RS256'], audience: 'crm-api' });
      expect(payload.jti).toBe(first.cred_id);
      expect(payload.exp! * 1000).toBeGreaterThan(Date.parse(first.expires_at));

      const cooldown = await writer.post('/v1/mandate/refresh', { cred_id: first.cred_id });
      expect(cooldown.status).toBe(429);
      expect(cooldown.body.code).toBe('cooldown');
      expect(Number(cooldown.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);

      const revoked = await writer.post('/v1/mandate/revoke', { cred_id: first.cred_id, reason: 'session ended' });
      expect(revoked.body).toEqual({ cred_id: first.cred_id, status: 'revoked', revoked_at: expect.any(String) });
      expect((await writer.post('/v1/mandate/revoke', { cred_id: first.cred_id })).body).toEqual(revoked.body);
      expect((await writer.post('/v1/mandate/refresh', { cred_id: first.cred_id })).body.code).toBe('mandate_revoked');
      expect((await reader.get(`/v1/mandate/${first.cred_id}`)).body).toMatchObject({ status: 'revoked', refresh_count: 1 });
      expect((await otherOrg.post('/v1/mandate/revoke', { cred_id: first.cred_id })).status).toBe(404);
      expect((await writer.post('/v1/mandate/revoke', { cred_id: 'cred_unknown' })).status).toBe(404);

      const short = (await writer.post('/v1/mandate/dispense', dispenseBody({ ttl_seconds: 1 }))).body;
      await new Promise((r) => setTimeout(r, 1100));
      expect((await writer.post('/v1/mandate/refresh', { cred_id: short.cred_id })).body.code).toBe('mandate_expired');
      expect((await reader.get(`/v1/mandate/${short.cred_id}`)).body.status).toBe('expired');
    });
  });
}
