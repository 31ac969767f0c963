import { decodeJwt } from 'jose';
import { Topics, type EventEnvelope } from '@igw/contracts';
import { AppError } from '@igw/kernel';
import { KeyRing } from '../signing/key-ring';
import { intentCardDto } from '../testing/fake-intent-cards.fake';
import { RefreshMandateUseCase } from './refresh-mandate.use-case';
import {
  ORG,
  caller,
  outsider,
  T0,
  T0_S,
  iso,
  signing,
  setup,
  dispenseDto,
  withMandate,
  vault,
  verify,
  eventsOf,
  typesOf,
  rejection,
} from './mandate.use-cases.fixture';

// Refreshing and revoking a mandate, and tenancy; dispensing: dispense-mandate.use-case.spec.ts.
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
