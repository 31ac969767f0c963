import { Inject, Injectable } from '@nestjs/common';
import { MANDATE_ISSUER_API, type MandateEventV1, type MandateIssuerApi } from '@igw/contracts';
import { ExactReadModel, revocationsKey, VERSION_BOARD, type OrgState, type ReadModelSource, type VersionBoard } from '@igw/events';
import { InMemoryRevocationSet } from '../verification/revocation-set';

/**
 * Feeds the revocation set the verifier checks, exactly (the shared ExactReadModel): the issuer
 * bumps a per-org revocation counter in the revoking transaction and advances it on the version
 * board before it answers. `mandate.revoked` events carry the counter and move an org forward one
 * step at a time; when the board is ahead, or the org was never loaded in this process, the
 * missing revocations are read from the issuer while the call waits, so a revoked mandate is
 * refused on the very next call and after any restart. Every org that ever revoked is loaded at
 * start. An issuer that cannot be reached while the org is behind fails the call closed.
 */
@Injectable()
export class RevocationsReadModel {
  readonly model: ExactReadModel<OrgState>;

  constructor(
    readonly set: InMemoryRevocationSet,
    @Inject(MANDATE_ISSUER_API) issuer: Pick<MandateIssuerApi, 'revocationsSince' | 'orgsWithRevocations'>,
    @Inject(VERSION_BOARD) board: VersionBoard,
  ) {
    const source: ReadModelSource<OrgState> = {
      // Incremental: only what was revoked after the version held (all of it for a new org).
      load: async (orgId, held) => {
        const after = held?.version ?? 0;
        const page = await issuer.revocationsSince(orgId, after);
        for (const r of page.revoked) set.revoke(r.cred_id, new Date(r.expires_at));
        return { version: Math.max(page.version, after) };
      },
      orgs: async () => (await issuer.orgsWithRevocations()).org_ids,
    };
    this.model = ExactReadModel.over(board, revocationsKey, { name: 'revocations', owner: 'mandate-issuer' }, source);
  }

  /** Undefined when the set already holds every revocation up to `boardVersion` (the hot path: no promise). */
  ensure(orgId: string, boardVersion: number): Promise<void> | undefined {
    const state = this.model.at(orgId, boardVersion);
    return state instanceof Promise ? state.then(() => undefined) : undefined;
  }

  /** A revocation event: into the set whatever its position (never wrong to know early); the org moves on when it is the next number. */
  apply(orgId: string, event: MandateEventV1): void {
    if (event.status !== 'revoked') return;
    this.set.revoke(event.cred_id, new Date(event.expires_at));
    if (typeof event.revocation_version === 'number') this.model.applyNext(orgId, event.revocation_version, () => undefined);
  }
}
