import { generateKeyPairSync } from 'node:crypto';
import { request } from 'undici';
import { closeInOrder, expectNoSecrets, freePort, rejectionOf, startTestJwtIssuer, VaultFakeServer, type TestJwtIssuer } from '@igw/testing';
import { BrokerError, CredentialBrokerRegistry, type BrokerMintRequest } from '../../application/brokers';
import { VaultJwtBroker } from './vault-jwt.broker';

// The vault broker against a Vault fake that verifies real RS256 mandates with the issuer's
// JWKS, fetched over HTTP from a tiny local JWKS server (as Vault's jwks_url would).

const ISSUER = 'https://gateway.test';

async function lookupSelf(addr: string, token: string, namespace?: string): Promise<{ status: number; body: any }> {
  const res = await request(`${addr}/v1/auth/token/lookup-self`, {
    headers: { 'x-vault-token': token, ...(namespace ? { 'x-vault-namespace': namespace } : {}) },
  });
  const text = await res.body.text();
  return { status: res.statusCode, body: text ? JSON.parse(text) : undefined };
}

const caught = (promise: Promise<unknown>): Promise<BrokerError> => rejectionOf(promise, BrokerError);

describe('VaultJwtBroker (int, Vault fake)', () => {
  let issuer: TestJwtIssuer;
  let vault: VaultFakeServer;
  let broker: VaultJwtBroker;
  const mintRequest = async (
    options: BrokerMintRequest['options'] = { vault_role: 'agent' },
    sign?: Parameters<TestJwtIssuer['sign']>,
  ): Promise<BrokerMintRequest> => {
    const mandate = await issuer.sign(...(sign ?? []));
    return { mandate, expiresAt: new Date(Date.now() + 600_000), options };
  };

  beforeAll(async () => {
    issuer = await startTestJwtIssuer({
      iss: ISSUER,
      aud: 'vault',
      claims: { org: 'org_1', intent_id: 'card_1', prompt_id: 'p1', scope: { operations: ['crm.read'], resources: ['crm/*'] } },
    });
    vault = await VaultFakeServer.start({
      jwksUrl: issuer.jwksUrl,
      boundIssuer: ISSUER,
      rootToken: 'root-token-for-tests',
      roles: {
        agent: { bound_audiences: ['vault'], bound_claims: { org: 'org_1' }, token_ttl: 300, token_policies: ['crm-read'] },
        long: { bound_audiences: ['vault'], token_ttl: 3600 },
        batch: { bound_audiences: ['vault'], token_ttl: 120, token_type: 'batch' },
      },
    });
    broker = new VaultJwtBroker({ addr: vault.addr, timeoutMs: 2000 });
  });

  afterEach(() => vault.reset());

  afterAll(() => closeInOrder(broker, vault, issuer));

  it('logs in with the mandate at the JWT auth method and returns a working Vault token', async () => {
    const req = await mintRequest();
    const minted = await broker.mint(req);

    expect(minted.kind).toBe('vault');
    expect(minted.result).toEqual({ kind: 'minted', vault_token: expect.stringMatching(/^hvs\./), lease_duration: 300 });
    expect(minted.outlivesMandate).toBe(false);
    expect(minted.expiresAt.getTime()).toBeGreaterThan(Date.now() + 295_000);
    expect(minted.revocationHandle).toEqual(expect.any(String));
    expect(minted.record).toEqual({
      kind: 'vault',
      vault_role: 'agent',
      namespace: null,
      accessor: expect.any(String),
      token_type: 'service',
      lease_duration: 300,
      expires_at: minted.expiresAt.toISOString(),
    });
    // The record is stored in clear: it must not hold the token.
    expect(JSON.stringify(minted.record)).not.toContain(minted.result.vault_token);

    // What went over the wire is Vault's documented login request.
    const [login] = vault.requestsTo('/v1/auth/jwt/login');
    expect(login).toMatchObject({ method: 'POST', body: { role: 'agent', jwt: req.mandate } });
    expect(login!.headers['content-type']).toBe('application/json');
    expect(login!.headers['x-vault-namespace']).toBeUndefined();
    expect(issuer.jwksHits).toBeGreaterThan(0);

    const lookup = await lookupSelf(vault.addr, minted.result.vault_token);
    expect(lookup.status).toBe(200);
    expect(lookup.body.data).toMatchObject({ accessor: minted.record.accessor, policies: ['default', 'crm-read'], meta: { role: 'agent' }, type: 'service' });
  });

  it('revokes the token with revoke-self; a lookup with it then fails and a second revoke is already_invalid', async () => {
    const minted = await broker.mint(await mintRequest());
    await expect(broker.revoke(minted.revocationHandle)).resolves.toEqual({ kind: 'vault', result: 'revoked' });

    const [revoke] = vault.requestsTo('/v1/auth/token/revoke-self');
    expect(revoke!.method).toBe('POST');
    expect(revoke!.headers['x-vault-token']).toBe(minted.result.vault_token);
    expect(vault.isLive(minted.result.vault_token)).toBe(false);
    expect(await lookupSelf(vault.addr, minted.result.vault_token)).toEqual({ status: 403, body: { errors: ['permission denied'] } });

    await expect(broker.revoke(minted.revocationHandle)).resolves.toEqual({ kind: 'vault', result: 'already_invalid' });
  });

  it('goes through the CREDENTIAL_BROKERS registry the same way', async () => {
    const registry = new CredentialBrokerRegistry([broker]);
    const minted = await registry.mint('vault', await mintRequest());
    expect(minted.result.vault_token).toMatch(/^hvs\./);
    await expect(registry.revoke('vault', minted.revocationHandle)).resolves.toEqual({ kind: 'vault', result: 'revoked' });
    expect(vault.liveTokens).toBe(0);
  });

  it('flags a token that outlives the mandate (role TTL longer than the mandate)', async () => {
    const req = await mintRequest({ vault_role: 'long' });
    const minted = await broker.mint({ ...req, expiresAt: new Date(Date.now() + 60_000) });
    expect(minted.result.lease_duration).toBe(3600);
    expect(minted.outlivesMandate).toBe(true);
  });

  it('hands out no revocation handle for a batch token (it cannot be revoked)', async () => {
    const minted = await broker.mint(await mintRequest({ vault_role: 'batch' }));
    expect(minted.result.vault_token).toMatch(/^hvb\./);
    expect(minted.revocationHandle).toBeNull();
    expect(minted.record).toMatchObject({ token_type: 'batch', accessor: null });
    await expect(broker.revoke(null)).resolves.toEqual({ kind: 'vault', result: 'not_revocable' });
  });

  describe('rejected (Vault answers 4xx)', () => {
    it.each<[string, BrokerMintRequest['options'], Parameters<TestJwtIssuer['sign']> | undefined, RegExp]>([
      ['a mandate for another audience', { vault_role: 'agent' }, [{}, { aud: 'conjur' }], /invalid audience \(aud\) claim/],
      ['a mandate of another org (bound claim)', { vault_role: 'agent' }, [{ org: 'org_2' }], /claim "org" does not match/],
      ['an unknown role', { vault_role: 'nope' }, undefined, /role "nope" could not be found/],
      ['no role and no default_role', {}, undefined, /missing role/],
      ['an expired mandate', { vault_role: 'agent' }, [{}, { expSeconds: -5 }], /error validating token: token is expired/],
    ])('%s', async (_name, options, sign, detail) => {
      const req = await mintRequest(options, sign);
      const err = await caught(broker.mint(req));
      expect(err).toMatchObject({ failure: 'rejected', broker: 'vault', brokerStatus: 400, code: 'broker_failed', kind: 'bad_gateway' });
      expect(err.message).toBe('vault rejected the login (HTTP 400)');
      expect(err.detail).toMatch(detail);
      expectNoSecrets(err, [req.mandate]);
      expect(vault.liveTokens).toBe(0);
    });

    it('a mandate signed by a key that is not in the JWKS', async () => {
      const { privateKey: otherKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
      const req = await mintRequest({ vault_role: 'agent' }, [{}, { key: otherKey }]);
      const err = await caught(broker.mint(req));
      expect(err).toMatchObject({ failure: 'rejected', brokerStatus: 400, detail: 'error validating token: failed to verify id token signature' });
      expectNoSecrets(err, [req.mandate]);
    });
  });

  describe('unavailable, timeout', () => {
    it('Vault down (connection refused) → unavailable', async () => {
      const down = new VaultJwtBroker({ addr: `http://127.0.0.1:${await freePort()}`, timeoutMs: 2000 });
      const req = await mintRequest();
      const err = await caught(down.mint(req));
      expect(err).toMatchObject({ failure: 'unavailable', broker: 'vault', brokerStatus: undefined });
      expect(err.message).toMatch(/^vault is unreachable for the login/);
      expectNoSecrets(err, [req.mandate]);
      await down.close();
    });

    it.each([
      ['sealed (503)', VaultFakeServer.errors(503, 'Vault is sealed'), 503],
      ['internal error (500)', VaultFakeServer.errors(500, 'internal error'), 500],
      ['rate limited (429)', VaultFakeServer.errors(429, 'request path "auth/jwt/login": rate limit quota exceeded'), 429],
    ])('Vault %s → unavailable with its status', async (_name, reply, status) => {
      vault.script('login', reply);
      const err = await caught(broker.mint(await mintRequest()));
      expect(err).toMatchObject({ failure: 'unavailable', brokerStatus: status });
      expect(err.message).toBe(`vault answered the login with HTTP ${status}`);
    });

    it('a connection closed without an answer → unavailable', async () => {
      vault.script('login', { destroy: true });
      expect(await caught(broker.mint(await mintRequest()))).toMatchObject({ failure: 'unavailable' });
    });

    it('a 200 without auth.client_token → unavailable', async () => {
      vault.script('login', { status: 200, json: { auth: null, data: null, warnings: ['odd'] } });
      const err = await caught(broker.mint(await mintRequest()));
      expect(err).toMatchObject({ failure: 'unavailable', brokerStatus: 200 });
    });

    it('a slow Vault → timeout within the configured bound', async () => {
      const quick = new VaultJwtBroker({ addr: vault.addr, timeoutMs: 300 });
      vault.script('login', { delayMs: 2000 });
      const started = Date.now();
      const err = await caught(quick.mint(await mintRequest()));
      expect(err).toMatchObject({ failure: 'timeout', broker: 'vault' });
      expect(err.message).toBe('vault gave no answer to the login within 300 ms');
      expect(Date.now() - started).toBeLessThan(1500);

      vault.script('revoke-self', { hang: true });
      const minted = await broker.mint(await mintRequest());
      await expect(quick.revoke(minted.revocationHandle)).rejects.toMatchObject({
        failure: 'timeout',
        message: 'vault gave no answer to the token revocation within 300 ms',
      });
      await quick.close();
    });

    it('a failed revocation is an error (the token stays live), not a silent success', async () => {
      const minted = await broker.mint(await mintRequest());
      vault.script('revoke-self', VaultFakeServer.errors(503, 'Vault is sealed'));
      const err = await caught(broker.revoke(minted.revocationHandle));
      expect(err).toMatchObject({ failure: 'unavailable', brokerStatus: 503, message: 'vault answered the token revocation with HTTP 503' });
      expect(vault.isLive(minted.result.vault_token)).toBe(true);
      await expect(broker.revoke(minted.revocationHandle)).resolves.toMatchObject({ result: 'revoked' });
    });

    it('a handle that is not a vault handle → misconfigured', async () => {
      await expect(broker.revoke('conjur:whatever')).rejects.toMatchObject({
        failure: 'misconfigured',
        message: 'the stored revocation handle is not a vault handle',
      });
    });
  });

  describe('secrets never appear in errors', () => {
    it('redacts a mandate or token echoed in Vault errors', async () => {
      const req = await mintRequest();
      vault.script('login', VaultFakeServer.errors(400, `error validating token: ${req.mandate} is bad`, 'also hvs.CAESIAAAAAAAAAAAAAAAAAAAAA'));
      const err = await caught(broker.mint(req));
      expect(err.detail).toBe('error validating token: [redacted] is bad; also [redacted]');
      expectNoSecrets(err, [req.mandate, 'hvs.CAESIAAAAAAAAAAAAAAAAAAAAA']);

      const minted = await broker.mint(await mintRequest());
      vault.script('revoke-self', VaultFakeServer.errors(500, `could not revoke ${minted.result.vault_token}`));
      const revokeErr = await caught(broker.revoke(minted.revocationHandle));
      expectNoSecrets(revokeErr, [minted.result.vault_token, minted.revocationHandle!]);
    });
  });

  describe('namespaces and mounts', () => {
    let nsVault: VaultFakeServer;
    beforeAll(async () => {
      nsVault = await VaultFakeServer.start({
        jwksUrl: issuer.jwksUrl,
        boundIssuer: ISSUER,
        namespace: 'team-a/agents',
        mount: 'gateway/jwt',
        defaultRole: 'agent',
        roles: { agent: { bound_audiences: ['vault'], token_ttl: 60 } },
      });
    });
    afterAll(() => nsVault.close());

    it('sends X-Vault-Namespace on login and on revoke, at the configured mount, and lets Vault pick the default role', async () => {
      const nsBroker = new VaultJwtBroker({ addr: `${nsVault.addr}/`, mount: 'gateway/jwt', namespace: 'team-a/agents/' });
      const req = await mintRequest({});
      const minted = await nsBroker.mint(req);
      expect(minted.result.lease_duration).toBe(60);
      expect(minted.record).toMatchObject({ namespace: 'team-a/agents', vault_role: null });
      const [login] = nsVault.requestsTo('/v1/auth/gateway/jwt/login');
      expect(login!.headers['x-vault-namespace']).toBe('team-a/agents');
      expect(login!.body).toEqual({ jwt: req.mandate });

      await expect(nsBroker.revoke(minted.revocationHandle)).resolves.toMatchObject({ result: 'revoked' });
      expect(nsVault.requestsTo('/v1/auth/token/revoke-self')[0]!.headers['x-vault-namespace']).toBe('team-a/agents');
      await nsBroker.close();
    });

    it('without the namespace, Vault finds no such mount → rejected 404', async () => {
      const noNs = new VaultJwtBroker({ addr: nsVault.addr, mount: 'gateway/jwt' });
      expect(await caught(noNs.mint(await mintRequest({})))).toMatchObject({ failure: 'rejected', brokerStatus: 404 });
      await noNs.close();
    });
  });
});
