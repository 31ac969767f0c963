import { systemClock, type Clock } from '@igw/kernel';

export const REVOCATION_SET = Symbol('REVOCATION_SET');

/** Revoked mandate ids (`jti` = `cred_id`), checked on every verification. Must answer from memory. */
export interface RevocationSet {
  isRevoked(jti: string): boolean;
}

/**
 * An in-memory revocation set, fed by the issuer's revocation events. An entry may carry the
 * mandate's expiry: once that has passed (plus a margin for clock skew) the mandate is refused as
 * expired anyway, so the entry is dropped to keep the set small. Without an expiry it stays.
 */
export class InMemoryRevocationSet implements RevocationSet {
  /** jti → expiry in epoch ms (Infinity when unknown). */
  private readonly revoked = new Map<string, number>();
  private lastPrune = 0;

  constructor(
    private readonly clock: Clock = systemClock,
    private readonly retainAfterExpiryMs: number = 5 * 60_000,
  ) {}

  revoke(jti: string, expiresAt?: Date | null): void {
    const until = expiresAt ? expiresAt.getTime() + this.retainAfterExpiryMs : Number.POSITIVE_INFINITY;
    const current = this.revoked.get(jti);
    this.revoked.set(jti, current === undefined ? until : Math.max(current, until));
  }

  isRevoked(jti: string): boolean {
    const now = this.clock.now().getTime();
    this.prune(now);
    const until = this.revoked.get(jti);
    if (until === undefined) return false;
    if (until > now) return true;
    this.revoked.delete(jti);
    return false;
  }

  get size(): number {
    return this.revoked.size;
  }

  /** At most once a minute: drops entries whose mandate can no longer verify anyway. */
  private prune(now: number): void {
    if (now - this.lastPrune < 60_000) return;
    this.lastPrune = now;
    for (const [jti, until] of this.revoked) if (until <= now) this.revoked.delete(jti);
  }
}
