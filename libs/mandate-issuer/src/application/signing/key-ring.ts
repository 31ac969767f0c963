import { createHash } from 'node:crypto';
import { Inject, Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import { AppError, CLOCK, defined, DependencyUnavailableError, type Clock } from '@igw/kernel';
import type { MandateClaims } from '../../domain/mandate';
import { applyKeySchedule, DEFAULT_KEY_SCHEDULE, planKeySchedule, publishedKeys, signingKey, type KeySchedulePolicy } from '../../domain/signing-key-schedule';
import { SIGNING_KEY_REPOSITORY, type SigningKeyRepository, type StoredSigningKey } from '../ports/signing-key.repository.port';
import { MANDATE_SIGNING, type MandateSigning, type OpenedSigningKey, type PublicRsaJwk } from './mandate-signing.port';

export const KEY_RING_OPTIONS = Symbol('KEY_RING_OPTIONS');

export interface KeyRingOptions {
  policy?: KeySchedulePolicy;
  /** How often a replica re-reads the stored keys (others may have rotated). */
  reloadMs?: number;
  /** How often a replica checks whether rotation is due. */
  rotateCheckMs?: number;
}

/**
 * `last_expiry` is raised in steps of this many seconds beyond the mandate's `exp`, so a busy key
 * writes it about once per step instead of on every dispense; a key then stays published at most
 * this much longer than strictly needed.
 */
const EXPIRY_STEP_SECONDS = 300;

/** 500 `signing_failed` (spec): the key store cannot give a usable key. The cause is logged, never sent. */
export const signingFailed = () => new AppError('internal', 'signing_failed', 'the mandate could not be signed: the signing-key store is unusable');

export interface Jwks {
  body: { keys: PublicRsaJwk[] };
  etag: string;
}

/**
 * The signing keys in memory: which key signs now, which the JWKS publishes, and rotation by the
 * schedule of the domain (a new key is published before it signs; a retired key stays published
 * until its last mandate expired). Every replica reloads the stored keys periodically and
 * rotation runs under the repository's lock, so replicas converge on one key set. Keys are
 * opened (KEK) once and kept opened in memory only.
 */
@Injectable()
export class KeyRing implements OnModuleDestroy {
  private readonly log = new Logger('KeyRing');
  private readonly policy: KeySchedulePolicy;
  private keys: StoredSigningKey[] = [];
  private readonly opened = new Map<string, OpenedSigningKey>();
  private jwksCache: { at: number; value: Jwks } | null = null;
  private timers: NodeJS.Timeout[] = [];
  private loaded = false;

  constructor(
    @Inject(SIGNING_KEY_REPOSITORY) private readonly repository: SigningKeyRepository,
    @Inject(MANDATE_SIGNING) private readonly signing: MandateSigning,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(KEY_RING_OPTIONS) private readonly options: KeyRingOptions,
  ) {
    this.policy = options.policy ?? DEFAULT_KEY_SCHEDULE;
  }

  /** Rotates if due (creating the first key on an empty store) and loads the keys; then keeps them current. */
  async start(): Promise<void> {
    await this.rotate();
    const reload = setInterval(
      () => void this.reload().catch((err: unknown) => this.log.warn(`reloading signing keys failed: ${String(err)}`)),
      this.options.reloadMs ?? 10_000,
    );
    const rotate = setInterval(
      () => void this.rotate().catch((err: unknown) => this.log.warn(`key rotation failed: ${String(err)}`)),
      this.options.rotateCheckMs ?? 60_000,
    );
    reload.unref();
    rotate.unref();
    this.timers = [reload, rotate];
  }

  onModuleDestroy(): void {
    for (const t of this.timers) clearInterval(t);
  }

  /** Applies the schedule's plan now (under the repository's lock) and reloads. */
  async rotate(): Promise<void> {
    const now = this.clock.now();
    const after = await this.repository.rotate(async (stored) => {
      const plan = planKeySchedule(stored, now, this.policy);
      if (!plan.create && plan.retire.length === 0 && plan.delete.length === 0) return null;
      const insert: StoredSigningKey[] = [];
      if (plan.create) {
        const key = await this.signing.generate();
        const meta = defined(applyKeySchedule([], { ...plan, retire: [], delete: [] }, now, key.kid)[0], `schedule of new key ${key.kid}`);
        insert.push({ ...meta, publicJwk: key.publicJwk, privateKeySealed: key.privateKeySealed, kekId: this.signing.kekId });
        this.log.log(`signing key ${key.kid} created; signs from ${meta.activatesAt.toISOString()}`);
      }
      return { insert, retire: plan.retire, delete: plan.delete };
    });
    this.install(after);
  }

  async reload(): Promise<void> {
    this.install(await this.repository.list());
  }

  /** The key that signs now, opened. 500 `signing_failed` when none is usable. */
  signer(): OpenedSigningKey {
    if (!this.loaded) throw signingFailed();
    const meta = signingKey(this.keys, this.clock.now());
    if (!meta) throw signingFailed();
    return this.open(meta);
  }

  /**
   * Signs claims with `key` and makes sure the key stays published until they expire. Resolves
   * only once that is stored (a 503 when the database is down: a mandate whose key could be
   * unpublished early is never handed out).
   */
  async sign(claims: MandateClaims, key: OpenedSigningKey): Promise<string> {
    let token: string;
    try {
      token = await this.signing.sign(claims, key);
    } catch (err) {
      this.log.error(`signing with key ${key.kid} failed: ${(err as Error).message}`);
      throw signingFailed();
    }
    await this.recordExpiry(key.kid, new Date(claims.exp * 1000));
    return token;
  }

  /** The public keys to publish now, with an ETag of their content. */
  jwks(): Jwks {
    if (!this.loaded) throw new DependencyUnavailableError('signing-key store');
    const now = this.clock.now().getTime();
    // Publication changes with time too (pending keys appear, retired ones expire): recompute each second.
    if (this.jwksCache && now - this.jwksCache.at < 1000) return this.jwksCache.value;
    const published = new Set(publishedKeys(this.keys, new Date(now), this.policy).map((k) => k.kid));
    const keys = this.keys.filter((k) => published.has(k.kid)).map((k) => ({ ...k.publicJwk }));
    keys.sort((a, b) => (a.kid < b.kid ? -1 : a.kid > b.kid ? 1 : 0));
    const body = { keys };
    const value = { body, etag: `"${createHash('sha256').update(JSON.stringify(body)).digest('base64url').slice(0, 27)}"` };
    this.jwksCache = { at: now, value };
    return value;
  }

  /** Keys known to this replica right now (for diagnostics and tests). */
  known(): readonly StoredSigningKey[] {
    return this.keys;
  }

  private open(meta: { kid: string }): OpenedSigningKey {
    const cached = this.opened.get(meta.kid);
    if (cached) return cached;
    const stored = this.keys.find((k) => k.kid === meta.kid);
    if (!stored) throw signingFailed();
    try {
      const key = this.signing.open(stored.kid, stored.privateKeySealed);
      this.opened.set(stored.kid, key);
      return key;
    } catch (err) {
      // A wrong KEK or a tampered row: never sign, never say more than "unusable" to the caller.
      this.log.error(`signing key ${stored.kid} cannot be opened: ${(err as Error).message}`);
      throw signingFailed();
    }
  }

  private install(keys: StoredSigningKey[]): void {
    this.keys = keys;
    this.loaded = true;
    this.jwksCache = null;
    for (const kid of [...this.opened.keys()]) if (!keys.some((k) => k.kid === kid)) this.opened.delete(kid);
  }

  private async recordExpiry(kid: string, exp: Date): Promise<void> {
    const stored = this.keys.find((k) => k.kid === kid);
    if (stored?.lastExpiry && stored.lastExpiry.getTime() >= exp.getTime()) return;
    const target = new Date(Math.ceil(exp.getTime() / 1000 / EXPIRY_STEP_SECONDS) * EXPIRY_STEP_SECONDS * 1000);
    await this.repository.recordExpiry(kid, target);
    if (stored && (!stored.lastExpiry || stored.lastExpiry < target)) stored.lastExpiry = target;
    this.jwksCache = null;
  }
}
