import { randomBytes } from 'node:crypto';
import { DependencyUnavailableError } from '@igw/kernel';
import { migrate, openPostgresDatabase, type ServiceDatabase } from '@igw/persistence';
import { planKeySchedule } from '../../domain/signing-key-schedule';
import type { StoredSigningKey } from '../../application/ports/signing-key.repository.port';
import { MANDATE_ISSUER_MIGRATIONS } from './mandate-issuer-prisma.client';
import { PrismaSigningKeyRepository } from './prisma-signing-key.repository';

const url = process.env.TEST_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';

const T0 = new Date('2026-03-01T10:00:00.000Z');
const at = (ms: number) => new Date(T0.getTime() + ms);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function key(extra: Partial<StoredSigningKey> = {}): StoredSigningKey {
  const kid = extra.kid ?? `kid_${randomBytes(6).toString('hex')}`;
  return {
    kid,
    publicJwk: { kty: 'RSA', kid, alg: 'RS256', use: 'sig', n: randomBytes(32).toString('base64url'), e: 'AQAB' },
    privateKeySealed: randomBytes(48).toString('base64url'),
    kekId: 'kek_1',
    createdAt: at(0),
    activatesAt: at(90_000),
    retiredAt: null,
    lastExpiry: null,
    ...extra,
  };
}

const none = { insert: [], retire: [], delete: [] };

describe('PrismaSigningKeyRepository (PostgreSQL)', () => {
  const schemas: string[] = [];
  const dbs: ServiceDatabase[] = [];
  let main: ServiceDatabase;

  /** A repository over a fresh, migrated schema; `replicas` more repositories share it over their own pools. */
  async function fresh(replicas = 0): Promise<PrismaSigningKeyRepository[]> {
    const schema = `it_signing_keys_${randomBytes(4).toString('hex')}`;
    schemas.push(schema);
    const opened = Array.from({ length: replicas + 1 }, () => openPostgresDatabase(url, schema, 4));
    dbs.push(...opened);
    await migrate(opened[0]!, MANDATE_ISSUER_MIGRATIONS);
    return opened.map((d) => new PrismaSigningKeyRepository(d));
  }

  beforeAll(() => {
    main = openPostgresDatabase(url, 'public', 2);
  });

  afterAll(async () => {
    for (const d of dbs) await d.close().catch(() => undefined);
    for (const s of schemas) await main.query(`DROP SCHEMA IF EXISTS "${s}" CASCADE`);
    await main.close();
  });

  it('stores and lists keys field for field (oldest first), and returns the keys after a rotation', async () => {
    const [repo] = await fresh();
    expect(await repo!.list()).toEqual([]);
    const first = key({ kid: 'kid_a', createdAt: at(0), activatesAt: at(0), lastExpiry: at(3_600_123) });
    const second = key({ kid: 'kid_b', createdAt: at(1_500), activatesAt: at(91_500) });
    const after = await repo!.rotate(async (keys) => {
      expect(keys).toEqual([]);
      return { insert: [second, first], retire: [], delete: [] };
    });
    expect(after).toEqual([first, second]);
    expect(await repo!.list()).toEqual([first, second]);
    expect((await repo!.list())[0]!.createdAt).toBeInstanceOf(Date);
  });

  it('applies inserts, retirements and deletions in one transaction', async () => {
    const [repo] = await fresh();
    const old = key({ kid: 'kid_old', createdAt: at(0), activatesAt: at(0), retiredAt: at(10_000), lastExpiry: at(20_000) });
    const signer = key({ kid: 'kid_signer', createdAt: at(1_000), activatesAt: at(10_000) });
    await repo!.rotate(async () => ({ insert: [old, signer], retire: [], delete: [] }));
    const next = key({ kid: 'kid_next', createdAt: at(50_000), activatesAt: at(140_000) });
    const after = await repo!.rotate(async (keys) => {
      expect(keys.map((k) => k.kid)).toEqual(['kid_old', 'kid_signer']);
      return { insert: [next], retire: [{ kid: 'kid_signer', retiredAt: at(140_000) }], delete: ['kid_old'] };
    });
    expect(after).toEqual([{ ...signer, retiredAt: at(140_000) }, next]);
    expect(await repo!.list()).toEqual(after);

    // null and an empty plan change nothing and return the keys as stored.
    expect(await repo!.rotate(async () => null)).toEqual(after);
    expect(await repo!.rotate(async () => none)).toEqual(after);
  });

  it('a failing rotation writes nothing', async () => {
    const [repo] = await fresh();
    await expect(
      repo!.rotate(async () => {
        throw new Error('signing_failed');
      }),
    ).rejects.toThrow('signing_failed');
    // The plan fails half-way (the second insert reuses a kid): the first insert is rolled back.
    const k = key({ kid: 'kid_dup' });
    await expect(repo!.rotate(async () => ({ insert: [k, { ...k }], retire: [], delete: [] }))).rejects.toBeDefined();
    expect(await repo!.list()).toEqual([]);
  });

  it('two replicas rotating at once insert exactly one key when both decide "insert if none"', async () => {
    for (let round = 0; round < 3; round++) {
      const replicas = await fresh(1);
      const seen: number[] = [];
      const decide = async (keys: StoredSigningKey[]) => {
        seen.push(keys.length);
        // Widen the window: a rotator without the lock would both read an empty store here.
        await sleep(50);
        return keys.length === 0 ? { insert: [key()], retire: [], delete: [] } : null;
      };
      const results = await Promise.all(replicas.map((r) => r.rotate(decide)));
      expect(seen.sort()).toEqual([0, 1]);
      expect(results[0]).toHaveLength(1);
      expect(results[1]).toEqual(results[0]);
      expect(await replicas[0]!.list()).toEqual(results[0]);
    }
  });

  it('two replicas following the real schedule on an empty store create one signing key', async () => {
    const replicas = await fresh(1);
    const now = at(0);
    const decide = async (keys: StoredSigningKey[]) => {
      const plan = planKeySchedule(keys, now);
      await sleep(30);
      return { insert: plan.create ? [key({ createdAt: now, activatesAt: plan.create.activatesAt })] : [], retire: plan.retire, delete: plan.delete };
    };
    await Promise.all(replicas.map((r) => r.rotate(decide)));
    const keys = await replicas[1]!.list();
    expect(keys).toHaveLength(1);
    expect(keys[0]!.activatesAt).toEqual(now);
  });

  it('the rotation lock is per schema: rotations of other deployments do not wait for it', async () => {
    const [a] = await fresh();
    const [b] = await fresh();
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const slow = a!.rotate(async () => (await held, null));
    await sleep(50);
    const started = Date.now();
    await b!.rotate(async () => null);
    expect(Date.now() - started).toBeLessThan(1000);
    release();
    await slow;
  });

  it('recordExpiry raises last_expiry and never lowers it, also under concurrent calls', async () => {
    const [repo] = await fresh();
    const k = key({ kid: 'kid_exp' });
    await repo!.rotate(async () => ({ insert: [k], retire: [], delete: [] }));
    const lastExpiry = async () => (await repo!.list()).find((x) => x.kid === 'kid_exp')!.lastExpiry;

    await repo!.recordExpiry('kid_exp', at(600_000));
    expect(await lastExpiry()).toEqual(at(600_000));
    await repo!.recordExpiry('kid_exp', at(300_000));
    expect(await lastExpiry()).toEqual(at(600_000));
    await repo!.recordExpiry('kid_exp', at(600_001));
    expect(await lastExpiry()).toEqual(at(600_001));

    const exps = [at(900_000), at(1_200_000), at(700_000), at(1_199_999), at(800_000)];
    await Promise.all(exps.map((e) => repo!.recordExpiry('kid_exp', e)));
    expect(await lastExpiry()).toEqual(at(1_200_000));

    // An unknown kid changes nothing (and does not fail the dispense that reported it).
    await expect(repo!.recordExpiry('kid_unknown', at(1))).resolves.toBeUndefined();
    expect((await repo!.list()).map((x) => x.kid)).toEqual(['kid_exp']);
  });

  it('an unreachable database is DependencyUnavailableError (503)', async () => {
    const dead = openPostgresDatabase('postgresql://postgres@127.0.0.1:1/postgres', 'it_signing_keys_dead', 2);
    dbs.push(dead);
    const repo = new PrismaSigningKeyRepository(dead);
    const decide = jest.fn(async () => null);
    await expect(repo.list()).rejects.toBeInstanceOf(DependencyUnavailableError);
    await expect(repo.rotate(decide)).rejects.toBeInstanceOf(DependencyUnavailableError);
    await expect(repo.recordExpiry('kid', at(0))).rejects.toBeInstanceOf(DependencyUnavailableError);
    expect(decide).not.toHaveBeenCalled();
  });
});
