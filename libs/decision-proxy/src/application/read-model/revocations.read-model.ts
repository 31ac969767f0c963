import { Inject, Injectable } from '@nestjs/common';
import { DependencyUnavailableError } from '@igw/kernel';
import { MANDATE_ISSUER_API, type MandateEventV1, type MandateIssuerApi } from '@igw/contracts';
import { InMemoryRevocationSet } from '../verification/revocation-set';

/**
 * Feeds the revocation set the verifier checks, exactly: the issuer bumps a per-org revocation
 * counter in the revoking transaction and advances it on the version board before it answers.
 * `revocation.revoked` events carry the counter and move an org forward one step at a time; when
 * the board is ahead (the event has not arrived yet, a cold start, a lost event) the missing
 * revocations are read from the issuer synchronously, so a revoked mandate is refused on the very
 * next call. An issuer that cannot be reached while the org is behind fails the call closed.
 */
@Injectable()
export class RevocationsReadModel {
  /** org → the last revocation counter value whose revocations are all in the set. */
  private readonly applied = new Map<string, number>();
  private readonly catchingUp = new Map<string, Promise<void>>();

  constructor(
    readonly set: InMemoryRevocationSet,
    @Inject(MANDATE_ISSUER_API) private readonly issuer: Pick<MandateIssuerApi, 'revocationsSince'>,
  ) {}

  /** Undefined when the set already holds every revocation up to `boardVersion` (the hot path: no promise). */
  ensure(orgId: string, boardVersion: number): Promise<void> | undefined {
    if ((this.applied.get(orgId) ?? 0) >= boardVersion) return undefined;
    return this.catchUp(orgId, boardVersion);
  }

  /** A revocation event: applied when it is the org's next counter value (idempotent otherwise). */
  apply(orgId: string, event: MandateEventV1): void {
    if (event.status !== 'revoked') return;
    // Into the set whatever its position: a revocation is never wrong to know early.
    this.set.revoke(event.cred_id, new Date(event.expires_at));
    const version = event.revocation_version;
    if (typeof version === 'number' && version === (this.applied.get(orgId) ?? 0) + 1) this.applied.set(orgId, version);
  }

  private async catchUp(orgId: string, atLeast: number): Promise<void> {
    for (let attempt = 0; attempt < 2; attempt++) {
      const running = this.catchingUp.get(orgId) ?? this.fetch(orgId);
      await running;
      if ((this.applied.get(orgId) ?? 0) >= atLeast) return;
    }
    throw new DependencyUnavailableError('mandate-issuer (revocations older than the published version)');
  }

  private fetch(orgId: string): Promise<void> {
    const after = this.applied.get(orgId) ?? 0;
    const work = (async () => {
      let page;
      try {
        page = await this.issuer.revocationsSince(orgId, after);
      } catch (err) {
        throw new DependencyUnavailableError('mandate-issuer', err);
      }
      for (const r of page.revoked) this.set.revoke(r.cred_id, new Date(r.expires_at));
      if (page.version > (this.applied.get(orgId) ?? 0)) this.applied.set(orgId, page.version);
    })();
    this.catchingUp.set(orgId, work);
    return work.finally(() => this.catchingUp.delete(orgId));
  }
}
