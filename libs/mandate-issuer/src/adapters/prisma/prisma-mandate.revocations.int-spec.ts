import { cpSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { Logger } from '@nestjs/common';
import { Topics, type EventEnvelope } from '@igw/contracts';
import { envelope, MemoryVersionBoard, revocationsKey, type VersionBoard } from '@igw/events';
import { DependencyUnavailableError } from '@igw/kernel';
import { migrate, openPostgresDatabase, type ServiceDatabase } from '@igw/persistence';
import { TEST_DATABASE_URL, dropTestSchema, openMigratedSchema, testSchemaName } from '@igw/persistence/testing';
import type { Mandate } from '../../domain/mandate';
import type { MandateEvents, MandateWrite } from '../../application/ports/mandate.repository.port';
import { createMandateIssuerPrisma, MANDATE_ISSUER_MIGRATIONS, type MandateIssuerPrisma } from './mandate-issuer-prisma.client';
import { mandateFixture } from './mandate.fixture';
import { PrismaMandateRepository } from './prisma-mandate.repository';

const schema = testSchemaName('revocations');

const T0 = new Date('2026-03-01T10:00:00.000Z');
const at = (ms: number) => new Date(T0.getTime() + ms);
const newOrg = () => `org_${randomBytes(4).toString('hex')}`;

function mandate(orgId: string, extra: Partial<Mandate> = {}): Mandate {
  return mandateFixture({
    credId: `cred_${randomBytes(8).toString('hex')}`,
    orgId,
    actor: 'agent:bot',
    intentId: 'crm',
    promptId: 'prm_1',
    audience: 'crm-api',
    scope: { operations: ['crm.read'], resources: ['crm://*'], forbidden_operations: [] },
    issuedAt: at(0),
    expiresAt: at(900_000),
    ...extra,
  });
}

/** Records what each write told its events builder, and emits one event carrying it. */
const recorder = (topic: { name: string; version: number }) => {
  const writes: MandateWrite[] = [];
  const events: MandateEvents = (saved, write) => {
    writes.push(write);
    return [envelope(topic, saved.orgId, { cred_id: saved.credId, revocation_version: write.revocationVersion }, T0)];
  };
  return { writes, events };
};
const revoke = (now: Date) => (m: Mandate) => (m.revokedAt !== null ? null : { ...m, revokedAt: now, revokeReason: null });

/** A board that, when told, checks that the revocation is already committed (seen from another connection). */
class CommitCheckingBoard implements VersionBoard {
  readonly inner = new MemoryVersionBoard();
  readonly advanced: [string, number, number][] = [];
  failing = false;
  constructor(private readonly db: () => ServiceDatabase) {}
  current(key: string) {
    return this.inner.current(key);
  }
  async advance(key: string, version: number) {
    const orgId = key.slice('revocations:'.length);
    const [row] = await this.db().query<{ version: number }>(`SELECT version FROM "${schema}"."org_revocation_versions" WHERE org_id = $1`, [orgId]);
    this.advanced.push([key, version, row?.version ?? 0]);
    if (this.failing) throw new Error('board down');
    await this.inner.advance(key, version);
  }
}

describe('PrismaMandateRepository revocation numbering (PostgreSQL)', () => {
  let db: ServiceDatabase;
  let observer: ServiceDatabase;
  let prisma: MandateIssuerPrisma;
  let repo: PrismaMandateRepository;
  let board: CommitCheckingBoard;

  const counter = async (orgId: string) =>
    (await db.query<{ version: number }>(`SELECT version FROM "${schema}"."org_revocation_versions" WHERE org_id = $1`, [orgId]))[0]?.version ?? 0;
  const seqOf = async (credId: string) =>
    (await db.query<{ revocation_seq: number | null }>(`SELECT revocation_seq FROM "${schema}"."mandates" WHERE cred_id = $1`, [credId]))[0]?.revocation_seq;
  const outbox = async (orgId: string) =>
    (
      await db.query<{ envelope: EventEnvelope<{ cred_id: string; revocation_version: number | null }> }>(
        `SELECT envelope FROM "${schema}"."outbox_events" WHERE key = $1 ORDER BY seq`,
        [orgId],
      )
    ).map((r) => r.envelope.data);

  beforeAll(async () => {
    jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    db = await openMigratedSchema(schema, MANDATE_ISSUER_MIGRATIONS, 12);
    observer = openPostgresDatabase(TEST_DATABASE_URL, schema, 2);
    prisma = await createMandateIssuerPrisma(db);
    board = new CommitCheckingBoard(() => observer);
    repo = new PrismaMandateRepository(prisma, db, { nudge: () => undefined }, board);
  });

  afterAll(async () => {
    await prisma?.$disconnect();
    await dropTestSchema(db);
    await observer?.close();
  });

  beforeEach(() => {
    board.advanced.length = 0;
    board.failing = false;
  });

  it('a revoke bumps the org counter once, numbers the row, tells its events, and advances the board after commit', async () => {
    const org = newOrg();
    const m = mandate(org);
    await repo.create({ mandate: m, brokerRevocationSealed: null }, recorder(Topics.MandateDispensed).events);
    expect(await counter(org)).toBe(0);
    expect(await seqOf(m.credId)).toBeNull();

    const rec = recorder(Topics.MandateRevoked);
    const revoked = await repo.update(org, m.credId, revoke(at(1000)), rec.events);
    expect(revoked!.revokedAt).toEqual(at(1000));
    expect(rec.writes).toEqual([{ revocationVersion: 1 }]);
    expect(await counter(org)).toBe(1);
    expect(await seqOf(m.credId)).toBe(1);
    // Advanced before update() resolved, and only once the counter was visible to another connection.
    expect(board.advanced).toEqual([[revocationsKey(org), 1, 1]]);
    expect(await board.current(revocationsKey(org))).toBe(1);
    expect((await outbox(org)).at(-1)).toEqual({ cred_id: m.credId, revocation_version: 1 });
  });

  it('an idempotent repeat revoke, and a later write to a revoked mandate, bump nothing', async () => {
    const org = newOrg();
    const m = mandate(org);
    await repo.create({ mandate: m, brokerRevocationSealed: null }, () => []);
    await repo.update(org, m.credId, revoke(at(1000)), recorder(Topics.MandateRevoked).events);

    const again = recorder(Topics.MandateRevoked);
    await repo.update(org, m.credId, revoke(at(2000)), again.events);
    expect(again.writes).toEqual([]);
    // The revoke use case's second write (the broker's answer) to a mandate already revoked.
    const broker = recorder(Topics.MandateRevoked);
    await repo.update(org, m.credId, (c) => ({ ...c, broker: { kind: 'vault', revocation: 'revoked' } as Mandate['broker'] }), broker.events);
    expect(broker.writes).toEqual([{ revocationVersion: null }]);

    expect(await counter(org)).toBe(1);
    expect(await seqOf(m.credId)).toBe(1);
    // The repeat revoke re-announces the same number (repairing a board write that failed); the
    // broker write announces nothing.
    expect(board.advanced.map(([, v]) => v)).toEqual([1, 1]);
    expect(await board.current(revocationsKey(org))).toBe(1);
  });

  it('a mandate created revoked (failed broker dispense) takes the next number; an active one none', async () => {
    const org = newOrg();
    const active = recorder(Topics.MandateDispensed);
    const a = mandate(org);
    await repo.create({ mandate: a, brokerRevocationSealed: null }, active.events);
    expect(active.writes).toEqual([{ revocationVersion: null }]);
    await repo.update(org, a.credId, revoke(at(1000)), () => []);

    const failed = recorder(Topics.MandateRevoked);
    const b = mandate(org, { revokedAt: at(2000), revokeReason: 'broker_failed' });
    await repo.create({ mandate: b, brokerRevocationSealed: null }, failed.events);
    expect(failed.writes).toEqual([{ revocationVersion: 2 }]);
    expect(await seqOf(b.credId)).toBe(2);
    expect(await counter(org)).toBe(2);
    expect(board.advanced).toEqual([
      [revocationsKey(org), 1, 1],
      [revocationsKey(org), 2, 2],
    ]);
  });

  it('a revocation that fails to commit takes no number and leaves the board alone', async () => {
    const org = newOrg();
    const m = mandate(org);
    await repo.create({ mandate: m, brokerRevocationSealed: null }, () => []);
    const boom: MandateEvents = () => {
      throw new Error('boom');
    };
    await expect(repo.update(org, m.credId, revoke(at(1000)), boom)).rejects.toThrow('boom');
    await expect(repo.create({ mandate: mandate(org, { revokedAt: at(1000) }), brokerRevocationSealed: null }, boom)).rejects.toThrow('boom');
    expect(await counter(org)).toBe(0);
    expect(board.advanced).toEqual([]);
    await repo.update(org, m.credId, revoke(at(2000)), () => []);
    expect(await seqOf(m.credId)).toBe(1);
  });

  it('a board that cannot be written fails the revoke with 503 (committed, not reported done); revoking again announces it', async () => {
    const org = newOrg();
    const m = mandate(org);
    await repo.create({ mandate: m, brokerRevocationSealed: null }, () => []);
    board.failing = true;
    await expect(repo.update(org, m.credId, revoke(at(1000)), () => [])).rejects.toBeInstanceOf(DependencyUnavailableError);
    expect(await counter(org)).toBe(1);
    expect(await seqOf(m.credId)).toBe(1);
    expect(await board.current(revocationsKey(org))).toBe(0);
    board.failing = false;
    expect((await repo.update(org, m.credId, revoke(at(2000)), () => []))!.revokedAt).toEqual(at(1000));
    expect(await board.current(revocationsKey(org))).toBe(1);
    expect(await counter(org)).toBe(1);
  });

  it('concurrent revokes of different mandates of one org get distinct consecutive numbers (first ones included)', async () => {
    for (let round = 0; round < 2; round++) {
      const org = newOrg();
      const ms = Array.from({ length: 10 }, () => mandate(org));
      for (const m of ms) await repo.create({ mandate: m, brokerRevocationSealed: null }, () => []);
      const writes: number[] = [];
      // Half through update, half created revoked: both paths share the counter.
      await Promise.all([
        ...ms.map((m) => repo.update(org, m.credId, revoke(at(1000)), (_s, w) => (writes.push(w.revocationVersion!), []))),
        ...Array.from({ length: 4 }, () =>
          repo.create(
            { mandate: mandate(org, { revokedAt: at(1000), revokeReason: 'broker_failed' }), brokerRevocationSealed: null },
            (_s, w) => (writes.push(w.revocationVersion!), []),
          ),
        ),
      ]);
      const expected = Array.from({ length: 14 }, (_, i) => i + 1);
      expect([...writes].sort((a, b) => a - b)).toEqual(expected);
      const seqs = (
        await db.query<{ revocation_seq: number }>(`SELECT revocation_seq FROM "${schema}"."mandates" WHERE org_id = $1 ORDER BY revocation_seq`, [org])
      ).map((r) => r.revocation_seq);
      expect(seqs).toEqual(expected);
      expect(await counter(org)).toBe(14);
      expect(await board.current(revocationsKey(org))).toBe(14);
    }
  });

  it('revocationsSince: the counter and the org’s revocations above the version, not long expired, in order', async () => {
    const org = newOrg();
    const otherOrg = newOrg();
    const soon = mandate(org, { expiresAt: at(60_000) });
    const later = mandate(org, { expiresAt: at(3_600_000) });
    const third = mandate(org, { expiresAt: at(3_600_000) });
    const active = mandate(org);
    const theirs = mandate(otherOrg);
    for (const m of [soon, later, third, active, theirs]) await repo.create({ mandate: m, brokerRevocationSealed: null }, () => []);
    expect(await repo.revocationsSince(org, 0, T0)).toEqual({ version: 0, revoked: [] });
    for (const m of [later, soon, third]) await repo.update(org, m.credId, revoke(at(1000)), () => []);
    await repo.update(otherOrg, theirs.credId, revoke(at(1000)), () => []);

    const entry = (m: Mandate) => ({ credId: m.credId, expiresAt: m.expiresAt });
    expect(await repo.revocationsSince(org, 0, T0)).toEqual({ version: 3, revoked: [entry(later), entry(soon), entry(third)] });
    expect(await repo.revocationsSince(org, 1, T0)).toEqual({ version: 3, revoked: [entry(soon), entry(third)] });
    expect(await repo.revocationsSince(org, 3, T0)).toEqual({ version: 3, revoked: [] });
    expect(await repo.revocationsSince(org, Number.MAX_SAFE_INTEGER, T0)).toEqual({ version: 3, revoked: [] });
    // Expired before the cut-off: no longer listed (the counter is unaffected).
    expect(await repo.revocationsSince(org, 0, at(60_000))).toEqual({ version: 3, revoked: [entry(later), entry(third)] });
    expect(await repo.revocationsSince(org, 0, at(59_999))).toEqual({ version: 3, revoked: [entry(later), entry(soon), entry(third)] });
    expect(await repo.revocationsSince(otherOrg, 0, T0)).toEqual({ version: 1, revoked: [entry(theirs)] });
    expect(await repo.revocationsSince(newOrg(), 0, T0)).toEqual({ version: 0, revoked: [] });
  });

  it('revocationsSince never answers a version whose revocations it does not list, while revokes commit', async () => {
    const org = newOrg();
    const ms = Array.from({ length: 30 }, () => mandate(org));
    for (const m of ms) await repo.create({ mandate: m, brokerRevocationSealed: null }, () => []);
    const reads: { version: number; revoked: { credId: string }[] }[] = [];
    let done = false;
    const reader = (async () => {
      while (!done) reads.push(await repo.revocationsSince(org, 0, T0));
    })();
    await Promise.all(ms.map((m) => repo.update(org, m.credId, revoke(at(1000)), () => [])));
    done = true;
    await reader;
    reads.push(await repo.revocationsSince(org, 0, T0));
    for (const r of reads) expect(r.revoked).toHaveLength(r.version);
    expect(reads.at(-1)!.version).toBe(30);
  });

  it('the migration numbers mandates revoked before it, per org in revocation order, and sets the counters', async () => {
    const legacy = `${schema}_legacy`;
    const dir = mkdtempSync(join(tmpdir(), 'igw-mig-'));
    const legacyDb = openPostgresDatabase(TEST_DATABASE_URL, legacy, 2);
    try {
      const [init] = readdirSync(MANDATE_ISSUER_MIGRATIONS).sort();
      cpSync(join(MANDATE_ISSUER_MIGRATIONS, init!), join(dir, init!), { recursive: true });
      await migrate(legacyDb, dir);
      const insert = (credId: string, orgId: string, status: string, revokedAt: Date | null) =>
        legacyDb.query(
          `INSERT INTO "${legacy}"."mandates" (cred_id, org_id, actor, intent_id, prompt_id, audience, scope, context, kid, issued_at, expires_at, status, revoked_at)
           VALUES ($1, $2, 'a', 'i', 'p', 'aud', '{}', '{}', 'kid', $3, $4, $5, $6)`,
          [credId, orgId, T0.toISOString(), at(3_600_000).toISOString(), status, revokedAt?.toISOString() ?? null],
        );
      await insert('c_late', 'org_a', 'revoked', at(3000));
      await insert('c_early', 'org_a', 'revoked', at(1000));
      await insert('c_active', 'org_a', 'active', null);
      await insert('c_b', 'org_b', 'revoked', at(2000));
      expect(await migrate(legacyDb, MANDATE_ISSUER_MIGRATIONS)).toEqual(readdirSync(MANDATE_ISSUER_MIGRATIONS).sort().slice(1));
      expect(await legacyDb.query(`SELECT cred_id, revocation_seq FROM "${legacy}"."mandates" ORDER BY cred_id`)).toEqual([
        { cred_id: 'c_active', revocation_seq: null },
        { cred_id: 'c_b', revocation_seq: 1 },
        { cred_id: 'c_early', revocation_seq: 1 },
        { cred_id: 'c_late', revocation_seq: 2 },
      ]);
      expect(await legacyDb.query(`SELECT org_id, version FROM "${legacy}"."org_revocation_versions" ORDER BY org_id`)).toEqual([
        { org_id: 'org_a', version: 2 },
        { org_id: 'org_b', version: 1 },
      ]);
      // From now on a revoked mandate always has its number.
      await expect(insert('c_unnumbered', 'org_a', 'revoked', at(4000))).rejects.toThrow(/mandates_revocation_seq_check/);
    } finally {
      await legacyDb.query(`DROP SCHEMA IF EXISTS "${legacy}" CASCADE`);
      await legacyDb.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
