import { decodeJwt } from 'jose';
import { parseEvent, Topics, type DispenseMandateDto, type MandateEventV1 } from '@igw/contracts';
import { AppError, DependencyUnavailableError } from '@igw/kernel';
import { BrokerError, type BrokerKind, type MintedCredential } from '../brokers';
import { intentCardDto } from '../testing/fake-intent-cards.fake';
import { brokerHandlePurpose } from './dispense-mandate.use-case';
import {
  ORG,
  caller,
  outsider,
  T0,
  T0_S,
  iso,
  signing,
  signingKid,
  setup,
  dispenseDto,
  withMandate,
  vault,
  verify,
  eventsOf,
  typesOf,
  expectNothingIssued,
  rejection,
} from './mandate.use-cases.fixture';

// Dispensing a mandate; refresh, revoke and tenancy: mandate.use-cases.spec.ts.
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
    expect(protectedHeader).toEqual({ alg: 'RS256', typ: 'mandate+jwt', kid: signingKid() });
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
      kid: signingKid(),
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
      kid: signingKid(),
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
