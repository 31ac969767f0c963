import { generateKeyPairSync } from 'node:crypto';
import { request } from 'undici';
import { closeInOrder, ConjurFakeServer, expectNoSecrets, freePort, rejectionOf, startTestJwtIssuer, type TestJwtIssuer } from '@igw/testing';
import { BrokerError, type BrokerMintRequest } from '../../application/brokers';
import { ConjurAuthnJwtBroker } from './conjur-authn-jwt.broker';

// The conjur broker against a Conjur fake that verifies real RS256 mandates with the issuer's
// JWKS, fetched over HTTP from a tiny local JWKS server (as the authenticator's jwks-uri would).

const ISSUER = 'https://gateway.test';
const ACCOUNT = 'myorg';
const SERVICE_ID = 'intent-gateway';
const HOST = 'host/jwt-apps/agents';

const caught = (promise: Promise<unknown>): Promise<BrokerError> => rejectionOf(promise, BrokerError);

async function whoami(url: string, token: string): Promise<{ status: number; body: any }> {
  const res = await request(`${url}/whoami`, { headers: { authorization: `Token token="${token}"` } });
  const text = await res.body.text();
  return { status: res.statusCode, body: text ? JSON.parse(text) : undefined };
}

describe('ConjurAuthnJwtBroker (int, Conjur fake)', () => {
  let issuer: TestJwtIssuer;
  let conjur: ConjurFakeServer;
  let broker: ConjurAuthnJwtBroker;
  const mintRequest = async (
    claims?: Record<string, unknown>,
    options?: Parameters<TestJwtIssuer['sign']>[1],
    mandateTtlMs = 600_000,
  ): Promise<BrokerMintRequest> => ({
    mandate: await issuer.sign(claims, options),
    expiresAt: new Date(Date.now() + mandateTtlMs),
    options: {},
  });

  beforeAll(async () => {
    issuer = await startTestJwtIssuer({ iss: ISSUER, aud: 'conjur', claims: { org: 'org_1', intent_id: 'card_1', prompt_id: 'p1' } });
    conjur = await ConjurFakeServer.start({
      account: ACCOUNT,
      serviceId: SERVICE_ID,
      jwksUrl: issuer.jwksUrl,
      issuer: ISSUER,
      audience: 'conjur',
      hosts: { [HOST]: { org: 'org_1' } },
    });
    broker = new ConjurAuthnJwtBroker({ url: conjur.url, account: ACCOUNT, serviceId: SERVICE_ID, hostId: HOST, timeoutMs: 2000 });
  });

  afterEach(() => conjur.reset());

  afterAll(() => closeInOrder(broker, conjur, issuer));

  it('authenticates at authn-jwt with the mandate and returns a base64 access token valid 8 minutes', async () => {
    const req = await mintRequest();
    const sent = Date.now();
    const minted = await broker.mint(req);

    expect(minted.kind).toBe('conjur');
    expect(minted.result).toEqual({ kind: 'minted', conjur_token: expect.stringMatching(/^[A-Za-z0-9+/]+=*$/), expires_at: minted.expiresAt.toISOString() });
    expect(Math.abs(minted.expiresAt.getTime() - (sent + 480_000))).toBeLessThan(2000);
    expect(minted.outlivesMandate).toBe(false);
    expect(minted.revocationHandle).toBeNull();
    expect(minted.record).toEqual({ kind: 'conjur', account: ACCOUNT, service_id: SERVICE_ID, host_id: HOST, expires_at: minted.expiresAt.toISOString() });

    // The documented request: path parameters URL-encoded, form body, Accept-Encoding: base64.
    const [call] = conjur.requests;
    expect(call).toMatchObject({ method: 'POST', path: `/authn-jwt/${SERVICE_ID}/${ACCOUNT}/host%2Fjwt-apps%2Fagents/authenticate` });
    expect(call!.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(call!.headers['accept-encoding']).toBe('base64');
    expect(new URLSearchParams(call!.body).get('jwt')).toBe(req.mandate);

    // The token works at Conjur, as the host.
    expect(conjur.hostOf(minted.result.conjur_token)).toBe(HOST);
    expect(await whoami(conjur.url, minted.result.conjur_token)).toMatchObject({ status: 200, body: { account: ACCOUNT, username: HOST } });
  });

  it('flags a token that outlives a mandate expiring within 8 minutes', async () => {
    const minted = await broker.mint(await mintRequest({}, {}, 60_000));
    expect(minted.outlivesMandate).toBe(true);
  });

  it('revoke answers not_revocable: Conjur access tokens cannot be revoked, they expire', async () => {
    await expect(broker.revoke(null)).resolves.toEqual({ kind: 'conjur', result: 'not_revocable' });
    expect(conjur.requests).toHaveLength(0);
  });

  it('takes the host from a claim when the authenticator has token-app-property (no host id in the URL)', async () => {
    const byClaim = await ConjurFakeServer.start({
      account: ACCOUNT,
      serviceId: SERVICE_ID,
      jwksUrl: issuer.jwksUrl,
      issuer: ISSUER,
      audience: 'conjur',
      tokenAppProperty: 'sub',
      identityPath: 'agents',
    });
    const claimBroker = new ConjurAuthnJwtBroker({ url: `${byClaim.url}/`, account: ACCOUNT, serviceId: SERVICE_ID });
    const minted = await claimBroker.mint(await mintRequest());
    expect(byClaim.requests[0]!.path).toBe(`/authn-jwt/${SERVICE_ID}/${ACCOUNT}/authenticate`);
    expect(byClaim.hostOf(minted.result.conjur_token)).toBe('host/agents/agent-7');
    expect(minted.record.host_id).toBeNull();
    await claimBroker.close();
    await byClaim.close();
  });

  it('base64-encodes a raw JSON token from a server that ignored Accept-Encoding', async () => {
    const raw = JSON.stringify({
      protected: 'e30',
      payload: Buffer.from(JSON.stringify({ sub: HOST, iat: 1, exp: 4102444800 })).toString('base64url'),
      signature: 'c2ln',
    });
    conjur.script({ status: 200, text: raw });
    const minted = await broker.mint(await mintRequest());
    expect(minted.result.conjur_token).toBe(Buffer.from(raw).toString('base64'));
    expect(minted.result.expires_at).toBe('2100-01-01T00:00:00.000Z');
  });

  describe('rejected (Conjur answers 401)', () => {
    it.each<[string, Record<string, unknown>, Parameters<TestJwtIssuer['sign']>[1]]>([
      ['a mandate for another audience', {}, { aud: 'vault' }],
      ['a mandate whose claims do not match the host annotations', { org: 'org_2' }, {}],
      ['an expired mandate', {}, { expSeconds: -5 }],
    ])('%s', async (_name, claims, options) => {
      const req = await mintRequest(claims, options);
      const err = await caught(broker.mint(req));
      expect(err).toMatchObject({ failure: 'rejected', broker: 'conjur', brokerStatus: 401, code: 'broker_failed', kind: 'bad_gateway' });
      expect(err.message).toBe('conjur rejected the authentication (HTTP 401)');
      expectNoSecrets(err, [req.mandate]);
    });

    it('a mandate signed by a key that is not in the JWKS', async () => {
      const { privateKey: otherKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
      expect(await caught(broker.mint(await mintRequest({}, { key: otherKey })))).toMatchObject({ failure: 'rejected', brokerStatus: 401 });
    });

    it('an unknown host, account or authenticator', async () => {
      for (const options of [{ hostId: 'host/jwt-apps/other' }, { account: 'other-account' }, { serviceId: 'other-service' }]) {
        const other = new ConjurAuthnJwtBroker({ url: conjur.url, account: ACCOUNT, serviceId: SERVICE_ID, hostId: HOST, ...options });
        expect(await caught(other.mint(await mintRequest()))).toMatchObject({ failure: 'rejected', brokerStatus: 401 });
        await other.close();
      }
    });
  });

  describe('unavailable, timeout', () => {
    it('Conjur down (connection refused) → unavailable', async () => {
      const down = new ConjurAuthnJwtBroker({ url: `http://127.0.0.1:${await freePort()}`, account: ACCOUNT, serviceId: SERVICE_ID, hostId: HOST });
      const req = await mintRequest();
      const err = await caught(down.mint(req));
      expect(err).toMatchObject({ failure: 'unavailable', broker: 'conjur' });
      expect(err.message).toMatch(/^conjur is unreachable for the authentication/);
      expectNoSecrets(err, [req.mandate]);
      await down.close();
    });

    it.each([500, 502, 503])('Conjur answering %i → unavailable', async (status) => {
      conjur.script({ status });
      expect(await caught(broker.mint(await mintRequest()))).toMatchObject({
        failure: 'unavailable',
        brokerStatus: status,
        message: `conjur answered the authentication with HTTP ${status}`,
      });
    });

    it('a 200 that is not an access token → unavailable', async () => {
      conjur.script({ status: 200, text: '<html>proxy login</html>' });
      expect(await caught(broker.mint(await mintRequest()))).toMatchObject({ failure: 'unavailable', brokerStatus: 200 });
    });

    it('a slow or silent Conjur → timeout within the configured bound', async () => {
      const quick = new ConjurAuthnJwtBroker({ url: conjur.url, account: ACCOUNT, serviceId: SERVICE_ID, hostId: HOST, timeoutMs: 300 });
      for (const reply of [{ delayMs: 2000 }, { hang: true as const }]) {
        conjur.script(reply);
        const started = Date.now();
        const err = await caught(quick.mint(await mintRequest()));
        expect(err).toMatchObject({ failure: 'timeout', broker: 'conjur', message: 'conjur gave no answer to the authentication within 300 ms' });
        expect(Date.now() - started).toBeLessThan(1500);
      }
      await quick.close();
    });
  });

  it('never puts the mandate or an echoed token in an error', async () => {
    const req = await mintRequest();
    conjur.script({ status: 401, text: `{"error":{"code":"unauthorized","message":"bad jwt ${req.mandate}"}}` });
    const err = await caught(broker.mint(req));
    expect(err.detail).toBe('{"error":{"code":"unauthorized","message":"bad jwt [redacted]"}}');
    expectNoSecrets(err, [req.mandate]);
  });
});
