import { randomBytes } from 'node:crypto';
import { Topics } from '@igw/contracts';
import { envelope } from '@igw/events';
import { DependencyUnavailableError } from '@igw/kernel';
import { openPostgresDatabase, type ServiceDatabase } from '@igw/persistence';
import { DEAD_DATABASE_URL, dropTestSchema, openMigratedSchema, testSchemaName, closeQuietly, readOutbox } from '@igw/persistence/testing';
import type { Mandate } from '../../domain/mandate';
import type { MandateEvents, StoredMandate } from '../../application/ports/mandate.repository.port';
import { createMandateIssuerPrisma, MANDATE_ISSUER_MIGRATIONS, type MandateIssuerPrisma } from './mandate-issuer-prisma.client';
import { mandateFixture } from './mandate.fixture';
import { PrismaMandateRepository } from './prisma-mandate.repository';

const schema = testSchemaName('mandates');

const T0 = new Date('2026-03-01T10:00:00.000Z');
const at = (ms: number) => new Date(T0.getTime() + ms);

let seq = 0;
function mandate(orgId: string, extra: Partial<Mandate> = {}): Mandate {
  seq++;
  return mandateFixture({
    credId: `mnd_${randomBytes(8).toString('hex')}`,
    orgId,
    actor: 'agent:billing-bot',
    intentId: 'crm-assistant',
    promptId: `prompt_${seq}`,
    audience: 'https://crm.example.com',
    scope: { operations: ['crm.contacts.read', 'crm.*.list'], resources: ['crm:customers/**'], forbidden_operations: ['crm.contacts.delete'] },
    context: { acr: 'mfa', ticket: 'T-1', nested: { list: [1, 2.5, 'x', null, true], empty: {} }, unicode: 'Zürich ✓ 日本' },
    acr: 'mfa',
    issuedAt: at(0),
    expiresAt: at(900_000),
    ...extra,
  });
}

/** A refresh as far as storage cares: each one must see the count the previous one wrote. */
const refreshed = (m: Mandate, now: Date): Mandate => ({
  ...m,
  refreshCount: m.refreshCount + 1,
  lastRefreshedAt: now,
  expiresAt: new Date(m.expiresAt.getTime() + 60_000),
  kid: 'kid_2',
});
const event =
  (topic: { name: string; version: number }): MandateEvents =>
  (saved) => [envelope(topic, saved.orgId, { cred_id: saved.credId, refresh_count: saved.refreshCount, revoked: saved.revokedAt !== null }, T0)];
const boom: MandateEvents = () => {
  throw new Error('boom');
};

describe('PrismaMandateRepository (PostgreSQL)', () => {
  let db: ServiceDatabase;
  let prisma: MandateIssuerPrisma;
  let repo: PrismaMandateRepository;
  let nudges = 0;
  const others: { db: ServiceDatabase; prisma: MandateIssuerPrisma }[] = [];

  const outbox = (orgId: string) => readOutbox<{ cred_id: string; refresh_count: number; revoked: boolean }>(db, orgId);
  const statusColumn = async (credId: string) =>
    (await db.query<{ status: string }>(`SELECT status FROM "${schema}"."mandates" WHERE cred_id = $1`, [credId]))[0]?.status;
  const stored = (m: Mandate, brokerRevocationSealed: string | null = null): StoredMandate => ({ mandate: m, brokerRevocationSealed });

  beforeAll(async () => {
    db = await openMigratedSchema(schema, MANDATE_ISSUER_MIGRATIONS, 8);
    prisma = await createMandateIssuerPrisma(db);
    repo = new PrismaMandateRepository(prisma, db, { nudge: () => nudges++ });
  });

  afterAll(async () => {
    await prisma?.$disconnect();
    await closeQuietly(others);
    await dropTestSchema(db);
  });

  it('create then find returns the mandate field for field, with its sealed broker handle', async () => {
    const org = 'org_roundtrip';
    const full = mandate(org, {
      broker: { kind: 'vault', role: 'crm-reader', lease_seconds: 900, nested: { paths: ['a/b', 'c'] } } as Mandate['broker'],
      classificationEvidence: { classification_method: 'lexical', confidence: 0.8731, supporting_evidence: [{ intent_label: 'crm_lookup', score: 7.25 }] },
      refreshCount: 3,
      lastRefreshedAt: at(5_123),
      revokedAt: at(7_456),
      revokeReason: 'leaked in a log',
    });
    await repo.create(stored(full, 'sealed-vault-token'), event(Topics.MandateDispensed));
    expect(await repo.find(org, full.credId)).toEqual({ mandate: full, brokerRevocationSealed: 'sealed-vault-token' });
    expect(await statusColumn(full.credId)).toBe('revoked');

    // Nullable fields stay null (SQL NULL, not JSON null), and an empty context stays an object.
    const bare = mandate(org, { acr: null, promptId: null, context: {} });
    await repo.create(stored(bare), event(Topics.MandateDispensed));
    const found = await repo.find(org, bare.credId);
    expect(found).toEqual({ mandate: bare, brokerRevocationSealed: null });
    expect(found!.mandate.issuedAt).toBeInstanceOf(Date);
    expect(await statusColumn(bare.credId)).toBe('active');
    const [nulls] = await db.query<Record<string, unknown>>(
      `SELECT broker IS NULL AS broker, classification_evidence IS NULL AS evidence, broker_revocation_enc IS NULL AS sealed, prompt_id IS NULL AS prompt FROM "${schema}"."mandates" WHERE cred_id = $1`,
      [bare.credId],
    );
    expect(nulls).toEqual({ broker: true, evidence: true, sealed: true, prompt: true });
    // A change keeps a mandate bound to no prompt unbound.
    const refreshedBare = await repo.update(org, bare.credId, (m) => refreshed(m, at(1_000)), event(Topics.MandateRefreshed));
    expect(refreshedBare).toMatchObject({ promptId: null, refreshCount: 1 });
    expect((await repo.find(org, bare.credId))!.mandate.promptId).toBeNull();
  });

  it("another org's cred_id is not found, and cannot be updated", async () => {
    const mine = mandate('org_a');
    await repo.create(stored(mine), event(Topics.MandateDispensed));
    expect(await repo.find('org_b', mine.credId)).toBeNull();
    const change = jest.fn((m: Mandate) => ({ ...m, revokedAt: T0 }));
    expect(await repo.update('org_b', mine.credId, change, event(Topics.MandateRevoked))).toBeNull();
    expect(change).not.toHaveBeenCalled();
    expect(await repo.update('org_a', 'mnd_missing', change, event(Topics.MandateRevoked))).toBeNull();
    expect((await repo.find('org_a', mine.credId))!.mandate.revokedAt).toBeNull();
    expect(await outbox('org_b')).toEqual([]);
  });

  it('the outbox row commits with the record and the relay is nudged after commit', async () => {
    const org = 'org_outbox';
    const m = mandate(org);
    const before = nudges;
    await repo.create(stored(m), event(Topics.MandateDispensed));
    expect(nudges - before).toBe(1);
    const rows = await outbox(org);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ topic: Topics.MandateDispensed.name, key: org });
    expect(rows[0]!.envelope).toMatchObject({ type: Topics.MandateDispensed.name, org_id: org, data: { cred_id: m.credId, refresh_count: 0 } });
    expect(rows[0]!.id).toBe(rows[0]!.envelope.id);
  });

  it('a failing events builder writes nothing: neither the mandate nor its change', async () => {
    const org = 'org_atomic';
    const m = mandate(org);
    const before = nudges;
    await expect(repo.create(stored(m), boom)).rejects.toThrow('boom');
    expect(await repo.find(org, m.credId)).toBeNull();

    await repo.create(stored(m), event(Topics.MandateDispensed));
    await expect(repo.update(org, m.credId, (c) => refreshed(c, at(1000)), boom)).rejects.toThrow('boom');
    // A change refusing (throwing) writes nothing either.
    const refuse = () => {
      throw new Error('mandate_revoked');
    };
    await expect(repo.update(org, m.credId, refuse, event(Topics.MandateRefreshed))).rejects.toThrow('mandate_revoked');
    expect(await repo.find(org, m.credId)).toEqual({ mandate: m, brokerRevocationSealed: null });
    expect((await outbox(org)).map((r) => r.topic)).toEqual([Topics.MandateDispensed.name]);
    expect(nudges - before).toBe(1);
  });

  it('update applies the change, stores revocation in the status column and writes its events', async () => {
    const org = 'org_update';
    const m = mandate(org, { broker: { kind: 'conjur' } });
    await repo.create(stored(m, 'sealed'), event(Topics.MandateDispensed));
    const after = await repo.update(org, m.credId, (c) => refreshed(c, at(12_345)), event(Topics.MandateRefreshed));
    const expected = refreshed(m, at(12_345));
    expect(after).toEqual(expected);
    expect(await repo.find(org, m.credId)).toEqual({ mandate: expected, brokerRevocationSealed: 'sealed' });
    expect(await statusColumn(m.credId)).toBe('active');

    const revoked = await repo.update(org, m.credId, (c) => ({ ...c, revokedAt: at(20_000), revokeReason: null }), event(Topics.MandateRevoked));
    expect(revoked).toEqual({ ...expected, revokedAt: at(20_000) });
    expect(await statusColumn(m.credId)).toBe('revoked');
    expect((await outbox(org)).map((r) => [r.topic, r.envelope.data.refresh_count, r.envelope.data.revoked])).toEqual([
      [Topics.MandateDispensed.name, 0, false],
      [Topics.MandateRefreshed.name, 1, false],
      [Topics.MandateRevoked.name, 1, true],
    ]);
  });

  it('an expired mandate is still stored as active: expiry is read from expires_at', async () => {
    const m = mandate('org_expired', { issuedAt: at(-3_600_000), expiresAt: at(-1_000) });
    await repo.create(stored(m), event(Topics.MandateDispensed));
    expect(await statusColumn(m.credId)).toBe('active');
    expect((await repo.find('org_expired', m.credId))!.mandate.expiresAt).toEqual(at(-1_000));
  });

  it('update returning null writes nothing and returns the record as it is', async () => {
    const org = 'org_noop';
    const m = mandate(org, { revokedAt: at(1), revokeReason: 'done' });
    await repo.create(stored(m), event(Topics.MandateDispensed));
    const before = nudges;
    const events = jest.fn(event(Topics.MandateRevoked));
    expect(await repo.update(org, m.credId, () => null, events)).toEqual(m);
    expect(events).not.toHaveBeenCalled();
    expect(nudges).toBe(before);
    expect((await outbox(org)).map((r) => r.topic)).toEqual([Topics.MandateDispensed.name]);
  });

  it('a change may not move the mandate to another cred_id or org', async () => {
    const org = 'org_identity';
    const m = mandate(org);
    await repo.create(stored(m), event(Topics.MandateDispensed));
    await expect(repo.update(org, m.credId, (c) => ({ ...c, orgId: 'org_other' }), event(Topics.MandateRefreshed))).rejects.toThrow(RangeError);
    expect(await repo.find(org, m.credId)).toEqual({ mandate: m, brokerRevocationSealed: null });
  });

  it('concurrent updates of one mandate serialise: each sees the previous refresh count', async () => {
    const org = 'org_race';
    for (let round = 0; round < 2; round++) {
      const m = mandate(org);
      await repo.create(stored(m), event(Topics.MandateDispensed));
      const seen: number[] = [];
      const results = await Promise.all(
        Array.from({ length: 5 }, (_, i) =>
          repo.update(
            org,
            m.credId,
            (c) => {
              seen.push(c.refreshCount);
              return refreshed(c, at(1000 * (i + 1)));
            },
            event(Topics.MandateRefreshed),
          ),
        ),
      );
      expect(seen).toEqual([0, 1, 2, 3, 4]);
      expect(results.map((r) => r!.refreshCount).sort()).toEqual([1, 2, 3, 4, 5]);
      const final = (await repo.find(org, m.credId))!.mandate;
      expect(final.refreshCount).toBe(5);
      expect(final.expiresAt).toEqual(new Date(m.expiresAt.getTime() + 5 * 60_000));
      const counts = (await outbox(org))
        .filter((r) => r.envelope.data.cred_id === m.credId && r.topic === Topics.MandateRefreshed.name)
        .map((r) => r.envelope.data.refresh_count);
      expect(counts).toEqual([1, 2, 3, 4, 5]);
    }
  });

  it('refresh and revoke racing: the later one sees the earlier one', async () => {
    const org = 'org_race2';
    const m = mandate(org);
    await repo.create(stored(m), event(Topics.MandateDispensed));
    const refresh = (c: Mandate) => {
      if (c.revokedAt !== null) throw new Error('mandate_revoked');
      return refreshed(c, at(1000));
    };
    const revoke = (c: Mandate) => (c.revokedAt !== null ? null : { ...c, revokedAt: at(2000) });
    const results = await Promise.allSettled([
      repo.update(org, m.credId, refresh, event(Topics.MandateRefreshed)),
      repo.update(org, m.credId, revoke, event(Topics.MandateRevoked)),
      repo.update(org, m.credId, revoke, event(Topics.MandateRevoked)),
    ]);
    expect(results[1]!.status).toBe('fulfilled');
    const final = (await repo.find(org, m.credId))!.mandate;
    expect(final.revokedAt).toEqual(at(2000));
    const topics = (await outbox(org)).map((r) => r.topic);
    // Revoked once, whatever the order; refreshed only if it got there first.
    expect(topics.filter((t) => t === Topics.MandateRevoked.name)).toHaveLength(1);
    expect(topics.filter((t) => t === Topics.MandateRefreshed.name)).toHaveLength(results[0]!.status === 'fulfilled' ? 1 : 0);
    expect(final.refreshCount).toBe(results[0]!.status === 'fulfilled' ? 1 : 0);
  });

  it('an unreachable database is DependencyUnavailableError (503)', async () => {
    const dead = openPostgresDatabase(DEAD_DATABASE_URL, schema, 2);
    const deadPrisma = await createMandateIssuerPrisma(dead);
    others.push({ db: dead, prisma: deadPrisma });
    const deadRepo = new PrismaMandateRepository(deadPrisma, dead, { nudge: () => undefined });
    const m = mandate('org_dead');
    await expect(deadRepo.find('org_dead', m.credId)).rejects.toBeInstanceOf(DependencyUnavailableError);
    await expect(deadRepo.create(stored(m), event(Topics.MandateDispensed))).rejects.toBeInstanceOf(DependencyUnavailableError);
    await expect(deadRepo.update('org_dead', m.credId, (c) => c, event(Topics.MandateRefreshed))).rejects.toBeInstanceOf(DependencyUnavailableError);
  });
});
