import { decodeJwt } from 'jose';
import { parseEvent, Topics, type DispensedMandateDto, type MandateEventV1 } from '@igw/contracts';
import { AppError, type Caller } from '@igw/kernel';
import { dispenseDto, mandateWorld } from '../testing/mandate-world.fake';
import { realMandateSigning } from '../testing/real-mandate-signing.fixture';
import { REVOCATION_LISTED_AFTER_EXPIRY_SECONDS, RevocationsSinceUseCase } from './revocations-since.use-case';

const ORG = 'org_acme';
const OTHER = 'org_other';
const caller: Caller = { orgId: ORG, keyId: 'key_writer', scope: 'policy_write' };
const other: Caller = { orgId: OTHER, keyId: 'key_other', scope: 'policy_write' };
const T0 = new Date('2026-03-01T10:00:00.000Z');

const { signing, signingKey } = realMandateSigning();

async function setup() {
  const world = await mandateWorld({ now: T0, signing, signingKey: signingKey(), kinds: ['vault'], orgs: [ORG, OTHER] });
  return { ...world, revocations: new RevocationsSinceUseCase(world.mandates, world.clock) };
}
type World = Awaited<ReturnType<typeof setup>>;

const events = (s: World) => s.mandates.outbox.map((e) => ({ type: e.type, org: e.org_id, data: parseEvent<MandateEventV1>(e) }));
const revokedEvents = (s: World) => events(s).filter((e) => e.type === Topics.MandateRevoked.name);

describe('revocation numbering', () => {
  it('each revoke bumps its org’s counter once and carries it on mandate.revoked; a repeat revoke bumps nothing', async () => {
    const s = await setup();
    const a = await s.dispense.execute(caller, dispenseDto());
    const b = await s.dispense.execute(caller, dispenseDto());
    const c = await s.dispense.execute(other, dispenseDto());
    // Dispensing and refreshing are not revocations.
    s.clock.advance(11_000);
    await s.refresh.execute(caller, { cred_id: a.cred_id });
    expect(s.mandates.revocationVersions.size).toBe(0);
    expect(events(s).every((e) => e.data.revocation_version === undefined)).toBe(true);

    await s.revoke.execute(caller, { cred_id: a.cred_id });
    await s.revoke.execute(caller, { cred_id: a.cred_id, reason: 'again' });
    await s.revoke.execute(caller, { cred_id: b.cred_id });
    await s.revoke.execute(other, { cred_id: c.cred_id });

    expect(s.mandates.revocationVersions).toEqual(
      new Map([
        [ORG, 2],
        [OTHER, 1],
      ]),
    );
    expect(revokedEvents(s).map((e) => [e.org, e.data.cred_id, e.data.revocation_version])).toEqual([
      [ORG, a.cred_id, 1],
      [ORG, b.cred_id, 2],
      [OTHER, c.cred_id, 1],
    ]);
  });

  it('the event contract takes revocation_version as an optional positive integer', async () => {
    const s = await setup();
    await s.revoke.execute(caller, { cred_id: (await s.dispense.execute(caller, dispenseDto())).cred_id });
    const revoked = s.mandates.outbox.find((e) => e.type === Topics.MandateRevoked.name)!;
    for (const bad of [0, -1, 1.5, '1']) {
      expect(() => parseEvent({ ...revoked, data: { ...(revoked.data as object), revocation_version: bad } })).toThrow(/revocation_version/);
    }
    expect(parseEvent<MandateEventV1>({ ...revoked, data: { ...(revoked.data as object), revocation_version: null } }).revocation_version).toBeNull();
  });

  it('a failed broker dispense is recorded revoked with the org’s next revocation number', async () => {
    const s = await setup();
    await s.revoke.execute(caller, { cred_id: (await s.dispense.execute(caller, dispenseDto())).cred_id });
    s.brokers.failNextMint();
    await expect(s.dispense.execute(caller, dispenseDto({ broker_dispense: { kind: 'vault' } }))).rejects.toMatchObject({ code: 'broker_failed' });
    const credId = decodeJwt(s.brokers.mints[0]!.request.mandate).jti!;
    expect(revokedEvents(s).at(-1)).toMatchObject({ data: { cred_id: credId, revoke_reason: 'broker_failed', revocation_version: 2 } });
    expect(s.mandates.revocationSeqs.get(credId)).toBe(2);
    expect(await s.revocations.execute(ORG, 1)).toEqual({ version: 2, revoked: [{ cred_id: credId, expires_at: expect.any(String) }] });
  });

  it('a revoke whose write fails takes no number', async () => {
    const s = await setup();
    const a = await s.dispense.execute(caller, dispenseDto());
    s.mandates.failNext.update = new Error('database down');
    await expect(s.revoke.execute(caller, { cred_id: a.cred_id })).rejects.toThrow('database down');
    expect(await s.revocations.execute(ORG, 0)).toEqual({ version: 0, revoked: [] });
    await s.revoke.execute(caller, { cred_id: a.cred_id });
    expect(revokedEvents(s).map((e) => e.data.revocation_version)).toEqual([1]);
  });
});

describe('RevocationsSinceUseCase', () => {
  it('answers the org’s counter and its revocations numbered above the version asked, in order', async () => {
    const s = await setup();
    expect(await s.revocations.execute(ORG, 0)).toEqual({ version: 0, revoked: [] });
    const out: DispensedMandateDto[] = [];
    for (let i = 0; i < 3; i++) out.push(await s.dispense.execute(caller, dispenseDto()));
    const theirs = await s.dispense.execute(other, dispenseDto());
    await s.revoke.execute(caller, { cred_id: out[2]!.cred_id });
    await s.revoke.execute(other, { cred_id: theirs.cred_id });
    await s.revoke.execute(caller, { cred_id: out[0]!.cred_id });

    const entry = (o: DispensedMandateDto) => ({ cred_id: o.cred_id, expires_at: o.expires_at });
    expect(await s.revocations.execute(ORG, 0)).toEqual({ version: 2, revoked: [entry(out[2]!), entry(out[0]!)] });
    expect(await s.revocations.execute(ORG, 1)).toEqual({ version: 2, revoked: [entry(out[0]!)] });
    expect(await s.revocations.execute(ORG, 2)).toEqual({ version: 2, revoked: [] });
    // Ahead of the counter (a board from another life): nothing, and the real counter.
    expect(await s.revocations.execute(ORG, 99)).toEqual({ version: 2, revoked: [] });
    expect(await s.revocations.execute(OTHER, 0)).toEqual({ version: 1, revoked: [entry(theirs)] });
    expect(await s.revocations.execute('org_nobody', 0)).toEqual({ version: 0, revoked: [] });
  });

  it(`keeps listing a revoked mandate until ${REVOCATION_LISTED_AFTER_EXPIRY_SECONDS} s after it expired`, async () => {
    const s = await setup();
    const short = await s.dispense.execute(caller, dispenseDto({ ttl_seconds: 60 }));
    const long = await s.dispense.execute(caller, dispenseDto({ ttl_seconds: 3600 }));
    await s.revoke.execute(caller, { cred_id: short.cred_id });
    await s.revoke.execute(caller, { cred_id: long.cred_id });
    const ids = async () => (await s.revocations.execute(ORG, 0)).revoked.map((r) => r.cred_id);

    s.clock.set(new Date(Date.parse(short.expires_at) + REVOCATION_LISTED_AFTER_EXPIRY_SECONDS * 1000 - 1));
    expect(await ids()).toEqual([short.cred_id, long.cred_id]);
    s.clock.set(new Date(Date.parse(short.expires_at) + REVOCATION_LISTED_AFTER_EXPIRY_SECONDS * 1000));
    expect(await ids()).toEqual([long.cred_id]);
    // The counter is not about expiry: it stays.
    expect((await s.revocations.execute(ORG, 0)).version).toBe(2);
  });

  it.each([-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53])('400 invalid_request for after = %p', async (after) => {
    const s = await setup();
    const err = await s.revocations.execute(ORG, after).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect(err).toMatchObject({ kind: 'invalid', code: 'invalid_request', extra: { details: [{ path: 'after' }] } });
  });

  it('an unreachable store propagates (the verifier then fails closed)', async () => {
    const s = await setup();
    s.mandates.failNext.revocationsSince = new Error('database down');
    await expect(s.revocations.execute(ORG, 0)).rejects.toThrow('database down');
  });
});
