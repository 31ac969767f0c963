import { Inject, Injectable } from '@nestjs/common';
import { rethrowUnavailable, type ServiceDatabase, type SqlRunner } from '@igw/persistence';
import type { SigningKeyRepository, StoredSigningKey } from '../../application/ports/signing-key.repository.port';
import type { PublicRsaJwk } from '../../application/signing/mandate-signing.port';
import { MANDATE_ISSUER_DB } from './mandate-issuer-prisma.client';

/** A `signing_keys` row as the drivers return it (`pg` and PGlite parse timestamptz and jsonb; strings are tolerated). */
export interface SigningKeyRow {
  kid: string;
  public_jwk: PublicRsaJwk | string;
  private_key_enc: string;
  kek_id: string;
  created_at: Date | string;
  activates_at: Date | string;
  retired_at: Date | string | null;
  last_expiry: Date | string | null;
}

const date = (v: Date | string): Date => (v instanceof Date ? v : new Date(v));
const nullableDate = (v: Date | string | null): Date | null => (v === null ? null : date(v));

export function toSigningKey(r: SigningKeyRow): StoredSigningKey {
  return {
    kid: r.kid,
    publicJwk: typeof r.public_jwk === 'string' ? (JSON.parse(r.public_jwk) as PublicRsaJwk) : r.public_jwk,
    privateKeySealed: r.private_key_enc,
    kekId: r.kek_id,
    createdAt: date(r.created_at),
    activatesAt: date(r.activates_at),
    retiredAt: nullableDate(r.retired_at),
    lastExpiry: nullableDate(r.last_expiry),
  };
}

type RotationPlan = { insert: StoredSigningKey[]; retire: { kid: string; retiredAt: Date }[]; delete: string[] };

/**
 * The deployment's signing keys, in raw SQL through the ServiceDatabase: `recordExpiry` runs on
 * every dispense and is one statement (Prisma adds ~4 ms per statement on PGlite, see
 * docs/decisions/0005), and `rotate` needs an advisory lock and a read inside one transaction.
 */
@Injectable()
export class PrismaSigningKeyRepository implements SigningKeyRepository {
  private readonly selectAll: string;
  private readonly insertKey: string;
  private readonly retireKey: string;
  private readonly deleteKeys: string;
  private readonly raiseExpiry: string;
  /** One lock per schema, shared by every replica using it. */
  private readonly lockName: string;

  constructor(@Inject(MANDATE_ISSUER_DB) private readonly db: ServiceDatabase) {
    const t = `"${db.schema}"."signing_keys"`;
    this.selectAll = `SELECT "kid", "public_jwk", "private_key_enc", "kek_id", "created_at", "activates_at", "retired_at", "last_expiry"
      FROM ${t} ORDER BY "created_at", "kid"`;
    this.insertKey = `INSERT INTO ${t} ("kid", "public_jwk", "private_key_enc", "kek_id", "created_at", "activates_at", "retired_at", "last_expiry")
      VALUES ($1, $2::jsonb, $3, $4, $5::timestamptz, $6::timestamptz, $7::timestamptz, $8::timestamptz)`;
    this.retireKey = `UPDATE ${t} SET "retired_at" = $2::timestamptz WHERE "kid" = $1`;
    this.deleteKeys = `DELETE FROM ${t} WHERE "kid" = ANY($1::text[])`;
    // One statement, no read first: concurrent dispenses never lower it, whatever their order.
    this.raiseExpiry = `UPDATE ${t} SET "last_expiry" = GREATEST(coalesce("last_expiry", $2::timestamptz), $2::timestamptz) WHERE "kid" = $1`;
    this.lockName = `igw-mandate-issuer-signing-keys-${db.schema}`;
  }

  async list(): Promise<StoredSigningKey[]> {
    const rows = await this.db.query<SigningKeyRow>(this.selectAll).catch(rethrowUnavailable);
    return rows.map(toSigningKey);
  }

  async rotate(decide: (keys: StoredSigningKey[]) => Promise<RotationPlan | null>): Promise<StoredSigningKey[]> {
    return this.db
      .transaction(async (tx) => {
        // Every replica rotating takes this lock first (released at commit), so each decides on
        // the keys as the previous rotation left them. PGlite is one process whose transaction
        // already excludes all other work: no lock needed there.
        if (this.db.kind === 'postgres') await tx.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [this.lockName]);
        const keys = await this.read(tx);
        const plan = await decide(keys);
        if (plan === null || (plan.insert.length === 0 && plan.retire.length === 0 && plan.delete.length === 0)) return keys;
        for (const k of plan.insert) {
          await tx.query(this.insertKey, [
            k.kid,
            JSON.stringify(k.publicJwk),
            k.privateKeySealed,
            k.kekId,
            k.createdAt.toISOString(),
            k.activatesAt.toISOString(),
            k.retiredAt?.toISOString() ?? null,
            k.lastExpiry?.toISOString() ?? null,
          ]);
        }
        for (const r of plan.retire) await tx.query(this.retireKey, [r.kid, r.retiredAt.toISOString()]);
        if (plan.delete.length > 0) await tx.query(this.deleteKeys, [plan.delete]);
        return this.read(tx);
      })
      .catch(rethrowUnavailable);
  }

  async recordExpiry(kid: string, exp: Date): Promise<void> {
    await this.db.query(this.raiseExpiry, [kid, exp.toISOString()]).catch(rethrowUnavailable);
  }

  private async read(q: SqlRunner): Promise<StoredSigningKey[]> {
    return (await q.query<SigningKeyRow>(this.selectAll)).map(toSigningKey);
  }
}
