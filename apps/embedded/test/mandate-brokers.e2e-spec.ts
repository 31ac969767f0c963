import { randomBytes } from 'node:crypto';
import { client, ConjurFakeServer, freePort, startEmbeddedSystem, VaultFakeServer, type Client } from '@igw/testing';

/**
 * Credential brokers over HTTP, against local servers implementing Vault's JWT auth and token
 * API and Conjur's authn-jwt, both verifying the mandate against the gateway's own JWKS URL —
 * as a real Vault or Conjur would. Then the key store is broken (another KEK) to see
 * 500 `signing_failed`.
 */
describe('mandate brokers and key store (embedded)', () => {
  let vault: VaultFakeServer;
  let conjur: ConjurFakeServer;
  let sys: Awaited<ReturnType<typeof startEmbeddedSystem>>;
  let writer: Client;
  const kek = randomBytes(32).toString('base64');

  const card = {
    id: 'vault-reader',
    name: 'Secrets reader',
    allowed_scope: { operations: ['secrets.read'], resources: ['kv://apps/*'] },
    audiences: ['vault'],
    max_ttl_seconds: 900,
  };
  const dispense = (broker: Record<string, unknown>) =>
    writer.post('/v1/mandate/dispense', {
      actor: 'agent:deployer',
      intent_id: card.id,
      prompt_id: 'prm_b',
      requested_scope: { operations: ['secrets.read'], resources: ['kv://apps/*'] },
      audience: 'vault',
      broker_dispense: broker,
    });

  beforeAll(async () => {
    const port = await freePort();
    const jwksUrl = `http://127.0.0.1:${port}/v1/mandate/jwks`;
    vault = await VaultFakeServer.start({
      jwksUrl,
      boundIssuer: 'intent-gateway',
      roles: { deployer: { bound_audiences: ['vault'], user_claim: 'sub', token_ttl: 900 } },
    });
    conjur = await ConjurFakeServer.start({ account: 'acme', serviceId: 'agents', jwksUrl, issuer: 'intent-gateway', audience: 'vault' });
    sys = await startEmbeddedSystem({
      port,
      env: {
        MANDATE_KEK: kek,
        VAULT_ADDR: vault.addr,
        CONJUR_URL: conjur.url,
        CONJUR_ACCOUNT: 'acme',
        CONJUR_AUTHN_JWT_SERVICE_ID: 'agents',
        CONJUR_HOST_ID: 'host/agents/deployer',
      },
    });
    const admin = client(sys.url, sys.adminKey);
    writer = client(sys.url, (await admin.post('/v1/api-keys', { name: 'w', scope: 'policy_write' })).body.key);
    expect((await writer.post('/v1/intent-cards', card)).status).toBe(201);
  });

  afterAll(async () => {
    await sys?.stop();
    await vault?.close();
    await conjur?.close();
  });

  it('vault: logs in with the mandate, returns the Vault token once, and revoking the mandate revokes the token', async () => {
    const res = await dispense({ kind: 'vault', vault_role: 'deployer' });
    expect(res.status).toBe(200);
    expect(res.body.broker_dispense).toEqual({ kind: 'vault', result: { kind: 'minted', vault_token: expect.stringMatching(/^hvs\./), lease_duration: 900 } });
    const token = res.body.broker_dispense.result.vault_token as string;
    expect(vault.isLive(token)).toBe(true);
    const login = vault.requestsTo('/v1/auth/jwt/login').at(-1)!;
    expect(login.body).toEqual({ role: 'deployer', jwt: res.body.credential });

    const view = await writer.get(`/v1/mandate/${res.body.cred_id}`);
    expect(view.body.broker).toMatchObject({ kind: 'vault', vault_role: 'deployer' });
    expect(JSON.stringify(view.body)).not.toContain(token);

    const revoked = await writer.post('/v1/mandate/revoke', { cred_id: res.body.cred_id });
    expect(revoked.body).toMatchObject({ status: 'revoked', broker_revocation: { kind: 'vault', result: 'revoked' } });
    expect(vault.isLive(token)).toBe(false);
    // Idempotent: the broker is not asked again once it confirmed.
    const calls = vault.requestsTo('/v1/auth/token/revoke-self').length;
    expect((await writer.post('/v1/mandate/revoke', { cred_id: res.body.cred_id })).body.broker_revocation).toEqual({ kind: 'vault', result: 'revoked' });
    expect(vault.requestsTo('/v1/auth/token/revoke-self')).toHaveLength(calls);
    expect(sys.output()).not.toContain(token);
  });

  it('vault refusing or down: 502 broker_failed, and the mandate it saw is left revoked', async () => {
    const rejected = await dispense({ kind: 'vault', vault_role: 'no-such-role' });
    expect(rejected).toMatchObject({ status: 502, body: { code: 'broker_failed' } });
    vault.script('login', VaultFakeServer.errors(503, 'Vault is sealed'));
    const down = await dispense({ kind: 'vault', vault_role: 'deployer' });
    expect(down).toMatchObject({ status: 502, body: { code: 'broker_failed' } });
    expect(down.body.credential).toBeUndefined();
    // The credential the broker saw is recorded revoked: no half-issued mandate stays active.
    const jwt = vault.requestsTo('/v1/auth/jwt/login').at(-1)!.body as { jwt: string };
    const credId = JSON.parse(Buffer.from(jwt.jwt.split('.')[1]!, 'base64url').toString()).jti as string;
    expect((await writer.get(`/v1/mandate/${credId}`)).body).toMatchObject({ status: 'revoked' });
  });

  it('conjur: authenticates with the mandate at authn-jwt and returns the access token', async () => {
    const res = await dispense({ kind: 'conjur' });
    expect(res.status).toBe(200);
    expect(res.body.broker_dispense).toEqual({ kind: 'conjur', result: { kind: 'minted', conjur_token: expect.any(String), expires_at: expect.any(String) } });
    expect((await writer.post('/v1/mandate/revoke', { cred_id: res.body.cred_id })).body.broker_revocation).toEqual({
      kind: 'conjur',
      result: 'not_revocable',
    });
  });

  it('requested_scope with only operations (DESIGN 6.8): an unknown card is 404 intent_not_found, a known card dispenses a mandate with no resources', async () => {
    const body = { actor: 'agent:deployer', requested_scope: { operations: ['secrets.read'] }, audience: 'vault' };
    const unknown = await writer.post('/v1/mandate/dispense', { ...body, intent_id: 'no-such-card' });
    expect(unknown).toMatchObject({ status: 404, body: { code: 'intent_not_found' } });

    const res = await writer.post('/v1/mandate/dispense', { ...body, intent_id: card.id });
    expect(res.status).toBe(200);
    const scope = JSON.parse(Buffer.from((res.body.credential as string).split('.')[1]!, 'base64url').toString()).scope;
    expect(scope).toEqual({ operations: ['secrets.read'], resources: [], forbidden_operations: [] });
    expect((await writer.get(`/v1/mandate/${res.body.cred_id}`)).body).toMatchObject({ status: 'active', scope });
    expect((await writer.post('/v1/mandate/refresh', { cred_id: res.body.cred_id })).status).toBe(200);

    const empty = await writer.post('/v1/mandate/dispense', { ...body, intent_id: card.id, requested_scope: { operations: [] } });
    expect(empty).toMatchObject({ status: 400, body: { code: 'invalid_request', message: 'requested_scope.operations must name at least one pattern' } });
  });

  it('a key store the process cannot open answers 500 signing_failed, never signs, and keeps publishing the JWKS', async () => {
    const before = await client(sys.url).get('/v1/mandate/jwks');
    await sys.restart({ MANDATE_KEK: randomBytes(32).toString('base64') });
    const res = await dispense({ kind: 'conjur' });
    expect(res).toMatchObject({ status: 500, body: { code: 'signing_failed', message: expect.any(String) } });
    expect(res.text).not.toMatch(/at .*\.(js|ts):\d+/);
    expect((await client(sys.url).get('/v1/mandate/jwks')).body).toEqual(before.body);
    expect(sys.output()).not.toContain(kek);
    await sys.restart({ MANDATE_KEK: kek });
    expect((await dispense({ kind: 'conjur' })).status).toBe(200);
  });
});
