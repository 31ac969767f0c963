import { randomBytes } from 'node:crypto';
import { Logger } from '@nestjs/common';
import { createLocalJWKSet, decodeJwt, jwtVerify } from 'jose';
import { parseEvent, Topics, type DispenseMandateDto, type EventEnvelope, type MandateEventV1 } from '@igw/contracts';
import { AppError, DependencyUnavailableError, type Caller } from '@igw/kernel';
// Signing and sealing are the real crypto edge, so credentials are checked with jose and sealed
// handles are real ciphertexts:
// eslint-disable-next-line no-restricted-imports
import { KeyEncryption } from '../../adapters/crypto/key-encryption';
// eslint-disable-next-line no-restricted-imports
import { RsaMandateSigning } from '../../adapters/crypto/rsa-mandate-signing';
import { BrokerError, type BrokerKind, type MintedCredential } from '../brokers';
import { KeyRing } from '../signing/key-ring';
import { intentCardDto } from '../testing/fake-intent-cards.fake';
import { dispenseDto as crmDispenseDto, mandateWorld, type GeneratedSigningKey } from '../testing/mandate-world.fake';
import { brokerHandlePurpose, MANDATE_ISSUER } from './dispense-mandate.use-case';
import { InspectMandateUseCase } from './inspect-mandate.use-case';
import { RefreshMandateUseCase } from './refresh-mandate.use-case';

jest.setTimeout(30_000);

const ORG = 'org_acme';
const caller: Caller = { orgId: ORG, keyId: 'key_writer', scope: 'policy_write' };
const outsider: Caller = { orgId: 'org_other', keyId: 'key_other', scope: 'admin' };
/** Mid-second on purpose: mandate times are whole seconds. */
const T0 = new Date('2026-03-01T10:00:00.250Z');
const T0_S = Math.floor(T0.getTime() / 1000);
const iso = (seconds: number) => new Date((T0_S + seconds) * 1000).toISOString();

const signing = new RsaMandateSigning(new KeyEncryption(randomBytes(32)));
let signingKey: GeneratedSigningKey;

beforeAll(async () => {
  for (const level of ['log', 'warn', 'error'] as const) jest.spyOn(Logger.prototype, level).mockImplementation(() => undefined);
  // One RSA key for the whole file, installed in each fresh store as a signer active for a day.
  signingKey = await signing.generate();
});

async function setup(kinds: BrokerKind[] = ['vault', 'conjur'], options: { loadKeys?: boolean } = {}) {
  const world = await mandateWorld({ now: T0, signing, signingKey, kinds, orgs: [ORG], loadKeys: options.loadKeys });
  return { ...world, sign: jest.spyOn(world.ring, 'sign'), inspect: new InspectMandateUseCase(world.mandates, world.clock) };
}
type World = Awaited<ReturnType<typeof setup>>;

/** The shared request, with the context and evidence the claims assertions look for. */
const dispenseDto = (extra: Partial<DispenseMandateDto> = {}): DispenseMandateDto =>
  crmDispenseDto({ context: { acr: 'mfa', channel: 'chat' }, classification_evidence: { classification_method: 'lexical', confidence: 0.92 }, ...extra });

/** A fresh world with one mandate dispensed from the default request. */
async function withMandate() {
  const s = await setup();
  return { s, out: await s.dispense.execute(caller, dispenseDto()) };
}
const vault = { broker_dispense: { kind: 'vault' as const, vault_role: 'agent' } };

/** A verifier with the gateway's published JWKS, at the world's time. */
const verify = (s: World, token: string) =>
  jwtVerify(token, createLocalJWKSet(s.ring.jwks().body), { algorithms: ['RS256'], typ: 'mandate+jwt', issuer: MANDATE_ISSUER, currentDate: s.clock.now() });

const eventsOf = (s: World) => s.mandates.outbox.map((e) => ({ type: e.type, data: parseEvent<MandateEventV1>(e) }));
const typesOf = (s: World) => s.mandates.outbox.map((e) => e.type);

/** Nothing signed, stored, emitted or asked of a broker. */
function expectNothingIssued(s: World) {
  expect(s.sign).not.toHaveBeenCalled();
  expect(s.keys.snapshot()[0]!.lastExpiry).toBeNull();
  expect(s.mandates.rows.size).toBe(0);
  expect(s.mandates.outbox).toEqual([]);
  expect(s.brokers.mints).toEqual([]);
}

const rejection = (p: Promise<unknown>): Promise<unknown> =>
  p.then(
    () => {
      throw new Error('expected a rejection');
    },
    (e: unknown) => e,
  );

describe('DispenseMandateUseCase', () => {
  it('signs an RS256 mandate for the card, stores the record without the credential and emits mandates.mandate.dispensed.v1', async () => {
    const { s, out } = await withMandate();
    expect(out).toEqual({
      credential: expect.stringMatching(/^eyJ[\w-]+\.[\w-]+\.[\w-]+$/),
      cred_id: expect.stringMatching(/^cred_[0-9a-f]{32}$/),
      expires_at: iso(300),
      ttl_seconds: 300,
    });
    expect(out).not.toHaveProperty('broker_dispense');
    expect(s.registry.calls).toEqual([{ orgId: ORG, id: 'crm' }]);

    const { payload, protectedHeader } = await verify(s, out.credential);
    expect(protectedHeader).toEqual({ alg: 'RS256', typ: 'mandate+jwt', kid: signingKey.kid });
    expect(payload).toEqual({
      iss: 'intent-gateway',
      sub: 'agent:support-bot',
      aud: 'crm-api',
      org: ORG,
      intent_id: 'crm',
      prompt_id: 'prm_1',
      scope: { operations: ['crm.contacts.read'], resources: ['crm://contacts/42'], forbidden_operations: ['crm.contacts.delete'] },
      ctx: { acr: 'mfa', channel: 'chat' },
      acr: 'mfa',
      iat: T0_S,
      nbf: T0_S,
      exp: T0_S + 300,
      jti: out.cred_id,
    });
    // The signing key stays published at least until this mandate expires.
    expect(s.keys.snapshot()[0]!.lastExpiry!.getTime()).toBeGreaterThanOrEqual((T0_S + 300) * 1000);

    expect(s.mandates.outbox).toHaveLength(1);
    const event = s.mandates.outbox[0]!;
    expect(event).toMatchObject({
      type: 'mandates.mandate.dispensed.v1',
      org_id: ORG,
      schema_version: Topics.MandateDispensed.version,
      occurred_at: T0.toISOString(),
    });
    // The same record, as the event carries it and as inspect shows it.
    const record = {
      cred_id: out.cred_id,
      actor: 'agent:support-bot',
      intent_id: 'crm',
      prompt_id: 'prm_1',
      audience: 'crm-api',
      scope: { operations: ['crm.contacts.read'], resources: ['crm://contacts/42'], forbidden_operations: ['crm.contacts.delete'] },
      status: 'active',
    };
    expect({ ...parseEvent<MandateEventV1>(event) }).toEqual({
      ...record,
      kid: signingKey.kid,
      issued_at: iso(0),
      expires_at: iso(300),
      revoked_at: null,
      revoke_reason: null,
      refresh_count: 0,
      broker_kind: null,
    });

    const stored = s.mandates.rows.get(out.cred_id)!;
    expect(stored.brokerRevocationSealed).toBeNull();
    expect(stored.mandate).toMatchObject({
      orgId: ORG,
      kid: signingKey.kid,
      broker: null,
      revokedAt: null,
      classificationEvidence: { classification_method: 'lexical', confidence: 0.92 },
    });
    const signature = out.credential.split('.')[2]!;
    for (const text of [JSON.stringify(stored), JSON.stringify(s.mandates.outbox)]) {
      expect(text).not.toContain(out.credential);
      expect(text).not.toContain(signature);
    }

    const view = await s.inspect.execute(caller, out.cred_id);
    expect(view).toEqual({
      ...record,
      issued_at: iso(0),
      expires_at: iso(300),
      revoked_at: null,
      refresh_count: 0,
      broker: null,
      classification_evidence: { classification_method: 'lexical', confidence: 0.92 },
    });
    expect(JSON.stringify(view)).not.toContain(signature);
    s.clock.advance(300_000);
    expect((await s.inspect.execute(caller, out.cred_id)).status).toBe('expired');
  });

  it('without prompt_id: a mandate bound to no prompt (no claim in the JWT, null in inspect and in its events, also after a refresh)', async () => {
    const s = await setup();
    const { prompt_id: _prompt, ...dto } = dispenseDto();
    const out = await s.dispense.execute(caller, dto as DispenseMandateDto);
    expect((await verify(s, out.credential)).payload).not.toHaveProperty('prompt_id');
    expect(await s.inspect.execute(caller, out.cred_id)).toMatchObject({ cred_id: out.cred_id, prompt_id: null });
    s.clock.advance(60_000);
    const refreshed = await s.refresh.execute(caller, { cred_id: out.cred_id });
    expect((await verify(s, refreshed.credential)).payload).not.toHaveProperty('prompt_id');
    expect(eventsOf(s).map((e) => [e.type, e.data.prompt_id])).toEqual([
      [Topics.MandateDispensed.name, null],
      [Topics.MandateRefreshed.name, null],
    ]);
  });

  it('404 intent_not_found for an unknown card or another org’s card, before anything is signed, stored or brokered', async () => {
    const s = await setup();
    s.registry.install('org_other', intentCardDto({ id: 'hr' }));
    for (const [who, id] of [
      [caller, 'nope'],
      [caller, 'hr'],
      [outsider, 'crm'],
    ] as const) {
      const err = await rejection(s.dispense.execute(who, dispenseDto({ intent_id: id, ...vault })));
      expect(err).toBeInstanceOf(AppError);
      expect(err).toMatchObject({ kind: 'not_found', code: 'intent_not_found' });
    }
    expectNothingIssued(s);
  });

  it('403 mandate_violation with suggested_scope for a scope beyond the card, before anything is signed or stored', async () => {
    const s = await setup();
    const dto = dispenseDto({ requested_scope: { operations: ['crm.contacts.read', 'crm.contacts.delete'], resources: ['crm://contacts/42'] }, ...vault });
    await expect(s.dispense.execute(caller, dto)).rejects.toMatchObject({
      kind: 'forbidden',
      code: 'mandate_violation',
      extra: { suggested_scope: { operations: ['crm.contacts.read'], resources: ['crm://contacts/42'], forbidden_operations: ['crm.contacts.delete'] } },
    });
    expectNothingIssued(s);
  });

  it('400 for a broker kind this gateway has not configured, before the card is read or anything signed or stored', async () => {
    const s = await setup(['vault']);
    const err = await rejection(s.dispense.execute(caller, dispenseDto({ broker_dispense: { kind: 'conjur' } })));
    expect(err).toMatchObject({ kind: 'invalid', code: 'invalid_request', extra: { details: [{ path: 'broker_dispense.kind' }] } });
    expect((err as Error).message).toContain('configured: vault');
    // An in-process caller may pass a kind the DTO would have refused.
    await expect(s.dispense.execute(caller, dispenseDto({ broker_dispense: { kind: 'aws' as BrokerKind } }))).rejects.toMatchObject({
      code: 'invalid_request',
    });
    expect(s.registry.calls).toEqual([]);
    expectNothingIssued(s);

    const none = await setup([]);
    await expect(none.dispense.execute(caller, dispenseDto(vault))).rejects.toMatchObject({
      code: 'invalid_request',
      message: expect.stringContaining('configured: none'),
    });
    expectNothingIssued(none);
  });

  it('500 signing_failed when the key ring has no usable key: nothing stored, no broker asked', async () => {
    const s = await setup(['vault'], { loadKeys: false });
    await expect(s.dispense.execute(caller, dispenseDto(vault))).rejects.toMatchObject({ kind: 'internal', code: 'signing_failed' });
    expect(s.mandates.rows.size).toBe(0);
    expect(s.mandates.outbox).toEqual([]);
    expect(s.brokers.mints).toEqual([]);
  });

  it('with a vault broker: returns broker_dispense once, stores only the non-secret record and the sealed revocation handle', async () => {
    const s = await setup();
    const out = await s.dispense.execute(caller, dispenseDto(vault));
    const minted = s.brokers.minted[0] as MintedCredential<'vault'>;
    expect(out.broker_dispense).toEqual({ kind: 'vault', result: { kind: 'minted', vault_token: minted.result.vault_token, lease_duration: 300 } });
    // The broker got the very credential returned, and the mandate's expiry.
    expect(s.brokers.mints).toEqual([
      { kind: 'vault', request: { mandate: out.credential, expiresAt: new Date(out.expires_at), options: { vault_role: 'agent' } } },
    ]);

    const stored = s.mandates.rows.get(out.cred_id)!;
    expect(stored.mandate.broker).toEqual(minted.record);
    const sealed = stored.brokerRevocationSealed!;
    expect(sealed).toEqual(expect.any(String));
    expect(minted.revocationHandle).toEqual(expect.any(String));
    expect(sealed).not.toContain(minted.revocationHandle!);
    expect(sealed).not.toContain(minted.result.vault_token);
    expect(Buffer.from(sealed, 'base64url').toString('latin1')).not.toContain(minted.result.vault_token);
    // Sealed to this mandate: it opens under its own purpose only.
    expect(signing.unseal(sealed, brokerHandlePurpose(out.cred_id))).toBe(minted.revocationHandle);
    expect(() => signing.unseal(sealed, brokerHandlePurpose('cred_other'))).toThrow();

    const view = await s.inspect.execute(caller, out.cred_id);
    expect(view.broker).toEqual(minted.record);
    for (const text of [JSON.stringify(stored), JSON.stringify(s.mandates.outbox), JSON.stringify(view)]) expect(text).not.toContain(minted.result.vault_token);
    expect(eventsOf(s)).toEqual([
      { type: Topics.MandateDispensed.name, data: expect.objectContaining({ cred_id: out.cred_id, status: 'active', broker_kind: 'vault' }) },
    ]);
  });

  it('with a conjur broker (nothing to revoke at the broker): no sealed handle is stored', async () => {
    const s = await setup();
    const out = await s.dispense.execute(caller, dispenseDto({ broker_dispense: { kind: 'conjur' } }));
    const minted = s.brokers.minted[0] as MintedCredential<'conjur'>;
    expect(out.broker_dispense).toEqual({ kind: 'conjur', result: minted.result });
    expect(s.mandates.rows.get(out.cred_id)).toMatchObject({ brokerRevocationSealed: null, mandate: { broker: minted.record } });
    expect(JSON.stringify(s.mandates.rows.get(out.cred_id))).not.toContain(minted.result.conjur_token);
  });

  it('a broker failure propagates (502 broker_failed) and the signed mandate is recorded revoked (broker_failed) with mandate.revoked: no active mandate left', async () => {
    const s = await setup();
    const failure = new BrokerError('rejected', 'vault', 'vault rejected the login (HTTP 400)', { brokerStatus: 400 });
    s.brokers.failNextMint(failure);
    const err = await rejection(s.dispense.execute(caller, dispenseDto(vault)));
    expect(err).toBe(failure);
    expect(err).toMatchObject({ kind: 'bad_gateway', code: 'broker_failed' });

    // The broker saw a signed credential: that one is on record as revoked.
    expect(s.brokers.mints).toHaveLength(1);
    const credId = decodeJwt(s.brokers.mints[0]!.request.mandate).jti!;
    expect([...s.mandates.rows.keys()]).toEqual([credId]);
    expect(s.mandates.rows.get(credId)).toMatchObject({
      brokerRevocationSealed: null,
      mandate: { revokedAt: T0, revokeReason: 'broker_failed', broker: null },
    });
    expect(eventsOf(s)).toEqual([
      {
        type: 'mandates.mandate.revoked.v1',
        data: expect.objectContaining({ cred_id: credId, status: 'revoked', revoked_at: T0.toISOString(), revoke_reason: 'broker_failed' }),
      },
    ]);
    expect(typesOf(s)).not.toContain(Topics.MandateDispensed.name);
    expect([...s.mandates.rows.values()].filter((r) => r.mandate.revokedAt === null)).toEqual([]);
    expect((await s.inspect.execute(caller, credId)).status).toBe('revoked');
    await expect(s.refresh.execute(caller, { cred_id: credId })).rejects.toMatchObject({ kind: 'conflict', code: 'mandate_revoked' });
    // Revoking it again is a no-op with nothing to tell a broker.
    expect(await s.revoke.execute(caller, { cred_id: credId })).toEqual({ cred_id: credId, status: 'revoked', revoked_at: T0.toISOString() });
    expect(s.brokers.revocations).toEqual([]);
  });

  it('a broker failure still answers the BrokerError when recording the revoked mandate fails too', async () => {
    const s = await setup();
    s.brokers.failNextMint(new BrokerError('unavailable', 'vault', 'vault is unavailable (HTTP 503)', { brokerStatus: 503 }));
    s.mandates.failNext.create = new DependencyUnavailableError('database');
    await expect(s.dispense.execute(caller, dispenseDto(vault))).rejects.toMatchObject({ code: 'broker_failed', failure: 'unavailable' });
    expect(s.mandates.rows.size).toBe(0);
  });

  it('storing fails after the broker minted: the broker credential is revoked and the storage error propagates', async () => {
    const s = await setup();
    const outage = new DependencyUnavailableError('database');
    s.mandates.failNext.create = outage;
    expect(await rejection(s.dispense.execute(caller, dispenseDto(vault)))).toBe(outage);
    const minted = s.brokers.minted[0]!;
    expect(s.brokers.revocations).toEqual([{ kind: 'vault', handle: minted.revocationHandle }]);
    expect(s.mandates.rows.size).toBe(0);
    expect(s.mandates.outbox).toEqual([]);

    // Even when the broker cannot revoke it then, the caller gets the storage error.
    s.mandates.failNext.create = outage;
    s.brokers.failNextRevoke();
    expect(await rejection(s.dispense.execute(caller, dispenseDto(vault)))).toBe(outage);
    expect(s.brokers.revocations).toHaveLength(2);
  });
});

describe('RefreshMandateUseCase', () => {
  it('issues a new credential with the same cred_id and a later exp, emits mandate.refreshed, and allows one refresh per 10 s (429 cooldown)', async () => {
    const { s, out: first } = await withMandate();
    s.clock.advance(60_000);
    const out = await s.refresh.execute(caller, { cred_id: first.cred_id, ttl_seconds: 600 });
    expect(out).toEqual({ credential: expect.any(String), cred_id: first.cred_id, expires_at: iso(660), ttl_seconds: 600, refresh_count: 1 });
    expect(out.credential).not.toBe(first.credential);
    const { payload } = await verify(s, out.credential);
    expect(payload).toMatchObject({ jti: first.cred_id, iat: T0_S + 60, nbf: T0_S + 60, exp: T0_S + 660 });
    expect(payload.exp!).toBeGreaterThan(decodeJwt(first.credential).exp!);
    // The previous credential stays valid until its own exp.
    await expect(verify(s, first.credential)).resolves.toBeDefined();

    expect(eventsOf(s).map((e) => [e.type, e.data.refresh_count, e.data.expires_at])).toEqual([
      [Topics.MandateDispensed.name, 0, iso(300)],
      [Topics.MandateRefreshed.name, 1, iso(660)],
    ]);
    expect(await s.inspect.execute(caller, first.cred_id)).toMatchObject({ status: 'active', refresh_count: 1, issued_at: iso(0), expires_at: iso(660) });
    expect(s.keys.snapshot()[0]!.lastExpiry!.getTime()).toBeGreaterThanOrEqual((T0_S + 660) * 1000);

    s.clock.advance(4_000);
    await expect(s.refresh.execute(caller, { cred_id: first.cred_id })).rejects.toMatchObject({
      kind: 'rate_limited',
      code: 'cooldown',
      extra: { retry_after: 6 },
    });
    expect(s.mandates.outbox).toHaveLength(2);
    expect(s.mandates.mandate(first.cred_id)!.refreshCount).toBe(1);

    s.clock.advance(6_000);
    expect(await s.refresh.execute(caller, { cred_id: first.cred_id })).toMatchObject({ cred_id: first.cred_id, refresh_count: 2 });
  });

  it('of two concurrent refreshes one wins and the other gets the cooldown', async () => {
    const { s, out } = await withMandate();
    s.clock.advance(30_000);
    const results = await Promise.allSettled([s.refresh.execute(caller, { cred_id: out.cred_id }), s.refresh.execute(caller, { cred_id: out.cred_id })]);
    expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
    expect(results.find((r) => r.status === 'rejected')).toMatchObject({ reason: { code: 'cooldown' } });
    expect(s.mandates.mandate(out.cred_id)!.refreshCount).toBe(1);
    expect(typesOf(s)).toEqual([Topics.MandateDispensed.name, Topics.MandateRefreshed.name]);
  });

  it('409 mandate_revoked for a revoked mandate and 409 mandate_expired for an expired one; nothing written', async () => {
    const { s, out: revoked } = await withMandate();
    const expiring = await s.dispense.execute(caller, dispenseDto({ ttl_seconds: 30 }));
    await s.revoke.execute(caller, { cred_id: revoked.cred_id });
    const events = s.mandates.outbox.length;
    await expect(s.refresh.execute(caller, { cred_id: revoked.cred_id })).rejects.toMatchObject({ kind: 'conflict', code: 'mandate_revoked' });
    s.clock.advance(30_000);
    await expect(s.refresh.execute(caller, { cred_id: expiring.cred_id })).rejects.toMatchObject({ kind: 'conflict', code: 'mandate_expired' });
    expect(s.mandates.outbox).toHaveLength(events);
    expect(s.mandates.mandate(revoked.cred_id)!.refreshCount).toBe(0);
    expect(s.mandates.mandate(expiring.cred_id)!.refreshCount).toBe(0);
  });

  it('404 intent_not_found when the card is gone; 500 signing_failed leaves the mandate as it was', async () => {
    const { s, out } = await withMandate();
    s.clock.advance(20_000);
    s.registry.remove(ORG, 'crm');
    await expect(s.refresh.execute(caller, { cred_id: out.cred_id })).rejects.toMatchObject({ kind: 'not_found', code: 'intent_not_found' });
    s.registry.install(ORG, intentCardDto());

    const unloaded = new KeyRing(s.keys, signing, s.clock, {});
    const refresh = new RefreshMandateUseCase(s.registry, s.mandates, unloaded, s.clock);
    await expect(refresh.execute(caller, { cred_id: out.cred_id })).rejects.toMatchObject({ code: 'signing_failed' });
    expect(s.mandates.mandate(out.cred_id)!.refreshCount).toBe(0);
    expect(s.mandates.outbox).toHaveLength(1);
  });
});

describe('RevokeMandateUseCase', () => {
  it('revokes with mandate.revoked; a second call answers the same revoked_at with no second event', async () => {
    const { s, out } = await withMandate();
    s.clock.advance(30_000);
    const first = await s.revoke.execute(caller, { cred_id: out.cred_id, reason: 'task done' });
    expect(first).toEqual({ cred_id: out.cred_id, status: 'revoked', revoked_at: new Date(T0.getTime() + 30_000).toISOString() });
    s.clock.advance(30_000);
    expect(await s.revoke.execute(caller, { cred_id: out.cred_id, reason: 'again' })).toEqual(first);
    expect(eventsOf(s)).toEqual([
      { type: Topics.MandateDispensed.name, data: expect.objectContaining({ status: 'active' }) },
      {
        type: Topics.MandateRevoked.name,
        data: expect.objectContaining({ cred_id: out.cred_id, status: 'revoked', revoked_at: first.revoked_at, revoke_reason: 'task done' }),
      },
    ]);
    expect(s.mandates.mandate(out.cred_id)).toMatchObject({ revokeReason: 'task done' });
    expect(await s.inspect.execute(caller, out.cred_id)).toMatchObject({ status: 'revoked', revoked_at: first.revoked_at });
    expect(s.brokers.revocations).toEqual([]);
  });

  it('revokes the broker credential once (from the sealed handle) and records the result; later calls repeat it without asking again', async () => {
    const s = await setup();
    const out = await s.dispense.execute(caller, dispenseDto(vault));
    const minted = s.brokers.minted[0]!;
    const first = await s.revoke.execute(caller, { cred_id: out.cred_id });
    expect(first).toEqual({ cred_id: out.cred_id, status: 'revoked', revoked_at: T0.toISOString(), broker_revocation: { kind: 'vault', result: 'revoked' } });
    expect(s.brokers.revocations).toEqual([{ kind: 'vault', handle: minted.revocationHandle }]);
    expect(s.mandates.mandate(out.cred_id)!.broker).toEqual({ ...minted.record, revocation: 'revoked' });

    s.clock.advance(5_000);
    expect(await s.revoke.execute(caller, { cred_id: out.cred_id })).toEqual(first);
    expect(s.brokers.revocations).toHaveLength(1);
    expect(typesOf(s)).toEqual([Topics.MandateDispensed.name, Topics.MandateRevoked.name]);
  });

  it('a broker outage during revoke answers result "failed" (the mandate is revoked all the same); a later revoke retries the broker', async () => {
    const s = await setup();
    const out = await s.dispense.execute(caller, dispenseDto(vault));
    const handle = s.brokers.minted[0]!.revocationHandle;
    s.brokers.failNextRevoke();
    const first = await s.revoke.execute(caller, { cred_id: out.cred_id });
    expect(first).toEqual({ cred_id: out.cred_id, status: 'revoked', revoked_at: T0.toISOString(), broker_revocation: { kind: 'vault', result: 'failed' } });
    expect(s.mandates.mandate(out.cred_id)!.broker).not.toHaveProperty('revocation');
    expect((await s.inspect.execute(caller, out.cred_id)).status).toBe('revoked');

    s.clock.advance(60_000);
    s.brokers.revokeResult = 'already_invalid';
    const second = await s.revoke.execute(caller, { cred_id: out.cred_id });
    expect(second).toEqual({ ...first, broker_revocation: { kind: 'vault', result: 'already_invalid' } });
    expect(s.brokers.revocations).toEqual([
      { kind: 'vault', handle },
      { kind: 'vault', handle },
    ]);
    expect(s.mandates.mandate(out.cred_id)!.broker).toMatchObject({ revocation: 'already_invalid' });
    expect(await s.revoke.execute(caller, { cred_id: out.cred_id })).toEqual(second);
    expect(s.brokers.revocations).toHaveLength(2);
    expect(typesOf(s).filter((t) => t === Topics.MandateRevoked.name)).toHaveLength(1);
  });

  it('a broker credential without a handle (conjur) is not_revocable, recorded, never sent to a broker', async () => {
    const s = await setup();
    const out = await s.dispense.execute(caller, dispenseDto({ broker_dispense: { kind: 'conjur' } }));
    const first = await s.revoke.execute(caller, { cred_id: out.cred_id });
    expect(first.broker_revocation).toEqual({ kind: 'conjur', result: 'not_revocable' });
    expect(s.brokers.brokerRevocations()).toEqual([]);
    expect(await s.revoke.execute(caller, { cred_id: out.cred_id })).toEqual(first);
    expect(s.brokers.revocations).toHaveLength(1);
  });

  it('concurrent revokes answer the same revocation and emit one event', async () => {
    const s = await setup();
    const out = await s.dispense.execute(caller, dispenseDto(vault));
    const [a, b] = await Promise.all([s.revoke.execute(caller, { cred_id: out.cred_id }), s.revoke.execute(caller, { cred_id: out.cred_id, reason: 'other' })]);
    expect(a.revoked_at).toBe(b.revoked_at);
    expect(a.broker_revocation).toEqual({ kind: 'vault', result: 'revoked' });
    expect(typesOf(s).filter((t) => t === Topics.MandateRevoked.name)).toHaveLength(1);
    expect(s.mandates.mandate(out.cred_id)).toMatchObject({ revokeReason: null, broker: { revocation: 'revoked' } });
  });

  it('400 for a reason over 1000 characters, nothing revoked', async () => {
    const { s, out } = await withMandate();
    await expect(s.revoke.execute(caller, { cred_id: out.cred_id, reason: 'x'.repeat(1001) })).rejects.toMatchObject({ code: 'invalid_request' });
    expect((await s.inspect.execute(caller, out.cred_id)).status).toBe('active');
    expect(s.mandates.outbox).toHaveLength(1);
  });
});

describe('tenancy', () => {
  it("another org's cred_id is 404 not_found for inspect, refresh and revoke, and nothing changes", async () => {
    const s = await setup();
    s.registry.install(outsider.orgId, intentCardDto());
    const out = await s.dispense.execute(caller, dispenseDto(vault));
    s.clock.advance(20_000);
    const before = structuredClone(s.mandates.rows.get(out.cred_id));
    for (const attempt of [
      () => s.inspect.execute(outsider, out.cred_id),
      () => s.refresh.execute(outsider, { cred_id: out.cred_id }),
      () => s.revoke.execute(outsider, { cred_id: out.cred_id }),
      () => s.inspect.execute(caller, 'cred_unknown'),
      () => s.refresh.execute(caller, { cred_id: 'cred_unknown' }),
      () => s.revoke.execute(caller, { cred_id: 'cred_unknown' }),
    ]) {
      const err = await rejection(attempt());
      expect(err).toBeInstanceOf(AppError);
      expect(err).toMatchObject({ kind: 'not_found', code: 'not_found' });
    }
    expect(s.mandates.rows.get(out.cred_id)).toEqual(before);
    expect(s.mandates.outbox.map((e: EventEnvelope) => e.type)).toEqual([Topics.MandateDispensed.name]);
    expect(s.brokers.revocations).toEqual([]);
    expect((await s.inspect.execute(caller, out.cred_id)).status).toBe('active');
  });
});
