import type { SigningKeyRepository, StoredSigningKey } from '../ports/signing-key.repository.port';

type RotationPlan = { insert: StoredSigningKey[]; retire: { kid: string; retiredAt: Date }[]; delete: string[] };

const byCreation = (a: StoredSigningKey, b: StoredSigningKey) => a.createdAt.getTime() - b.createdAt.getTime() || (a.kid < b.kid ? -1 : a.kid > b.kid ? 1 : 0);

/**
 * Test double of the signing-key repository port: same contract, in memory. `rotate` runs one
 * rotation at a time (the lock every replica shares), decides on a copy of the keys and applies
 * the plan all at once or not at all; `recordExpiry` only ever raises `lastExpiry`. Keys are
 * copied in and out, so a key ring never shares objects with the store.
 */
export class InMemorySigningKeyRepository implements SigningKeyRepository {
  readonly rows = new Map<string, StoredSigningKey>();
  /** How many rotations ran, and how many of them wrote something. */
  readonly stats = { rotations: 0, writes: 0 };
  /** The next call of each operation throws this instead (a database outage), then the slot is cleared. */
  readonly failNext: { list?: Error; rotate?: Error; recordExpiry?: Error } = {};
  private lock: Promise<unknown> = Promise.resolve();

  async list(): Promise<StoredSigningKey[]> {
    this.maybeFail('list');
    return this.snapshot();
  }

  rotate(decide: (keys: StoredSigningKey[]) => Promise<RotationPlan | null>): Promise<StoredSigningKey[]> {
    const run = this.lock.then(async () => {
      this.maybeFail('rotate');
      this.stats.rotations++;
      const plan = await decide(this.snapshot());
      if (plan === null || (plan.insert.length === 0 && plan.retire.length === 0 && plan.delete.length === 0)) return this.snapshot();
      // Stage on a copy: a plan that fails half-way (a duplicate kid) leaves the store as it was.
      const next = new Map([...this.rows].map(([kid, k]) => [kid, structuredClone(k)]));
      for (const k of plan.insert) {
        if (next.has(k.kid)) throw new Error(`duplicate kid ${k.kid}`);
        next.set(k.kid, structuredClone(k));
      }
      for (const r of plan.retire) {
        const k = next.get(r.kid);
        if (k) k.retiredAt = new Date(r.retiredAt);
      }
      for (const kid of plan.delete) next.delete(kid);
      this.rows.clear();
      for (const [kid, k] of next) this.rows.set(kid, k);
      this.stats.writes++;
      return this.snapshot();
    });
    this.lock = run.catch(() => undefined);
    return run;
  }

  async recordExpiry(kid: string, exp: Date): Promise<void> {
    this.maybeFail('recordExpiry');
    const k = this.rows.get(kid);
    if (k && (k.lastExpiry === null || k.lastExpiry.getTime() < exp.getTime())) k.lastExpiry = new Date(exp);
  }

  /** Stored keys, oldest first (as the SQL orders them), copied. */
  snapshot(): StoredSigningKey[] {
    return [...this.rows.values()].sort(byCreation).map((k) => structuredClone(k));
  }

  private maybeFail(op: keyof InMemorySigningKeyRepository['failNext']): void {
    const err = this.failNext[op];
    if (!err) return;
    delete this.failNext[op];
    throw err;
  }
}
