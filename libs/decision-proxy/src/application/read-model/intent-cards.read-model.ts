import { Inject, Injectable } from '@nestjs/common';
import { DependencyUnavailableError } from '@igw/kernel';
import { POLICY_REGISTRY_API, type IntentCardEventV1, type PolicyRegistryApi } from '@igw/contracts';
import { CompiledCardCache, type CompiledCard } from '../../domain';

/** One org's installed cards at one version of its cards counter, compiled. */
class OrgCards {
  constructor(
    readonly orgId: string,
    public version: number,
    readonly cards: Map<string, CompiledCard>,
    private readonly compiled: CompiledCardCache,
  ) {}

  apply(e: IntentCardEventV1): void {
    if (e.deleted) this.cards.delete(e.id);
    // A card version is compiled once, however many snapshots carry it.
    else this.cards.set(e.id, this.compiled.get(this.orgId, e));
  }
}

/**
 * The org's intent cards in memory, compiled once per card version, exact on every call: the
 * registry advances the org's cards counter on the version board after each commit and before
 * it answers, and the caller passes the board's value read for this call. Events move the model
 * one version at a time; a gap or a cold start loads a snapshot from the registry synchronously.
 * When the registry cannot be reached while the model is behind, the call fails closed (503).
 */
@Injectable()
export class IntentCardsReadModel {
  private readonly orgs = new Map<string, OrgCards>();
  private readonly refreshing = new Map<string, Promise<OrgCards>>();
  private readonly compiled = new CompiledCardCache(10_000);

  constructor(@Inject(POLICY_REGISTRY_API) private readonly registry: Pick<PolicyRegistryApi, 'intentCards'>) {}

  /** The org's card `id` as of at least `boardVersion`; null when the org has no such card. */
  card(orgId: string, id: string, boardVersion: number): CompiledCard | null | Promise<CompiledCard | null> {
    const org = this.orgs.get(orgId);
    // Synchronous on the hot path: no promise, no microtask, when the model is current.
    if (org && org.version >= boardVersion) return org.cards.get(id) ?? null;
    return this.load(orgId, boardVersion).then((fresh) => fresh.cards.get(id) ?? null);
  }

  private async load(orgId: string, atLeast: number): Promise<OrgCards> {
    // A refresh already running may have read an older snapshot than this call needs: one more.
    let org = await this.refresh(orgId, atLeast);
    if (org.version < atLeast) org = await this.refresh(orgId, atLeast);
    return org;
  }

  /** Applies a card event if it is the next version of its org; anything else waits for a snapshot. */
  apply(orgId: string, event: IntentCardEventV1): void {
    const org = this.orgs.get(orgId);
    if (!org || event.org_version !== org.version + 1) return;
    org.apply(event);
    org.version = event.org_version;
  }

  private refresh(orgId: string, atLeast: number): Promise<OrgCards> {
    const running = this.refreshing.get(orgId);
    if (running) return running;
    const work = (async () => {
      let snapshot;
      try {
        snapshot = await this.registry.intentCards(orgId);
      } catch (err) {
        throw new DependencyUnavailableError('policy-registry', err);
      }
      // The board is advanced after commit, so a snapshot read now is at least as new.
      if (snapshot.version < atLeast) throw new DependencyUnavailableError('policy-registry (snapshot older than the published version)');
      const fresh = new OrgCards(orgId, snapshot.version, new Map(), this.compiled);
      for (const c of snapshot.cards) fresh.apply(c);
      const existing = this.orgs.get(orgId);
      if (!existing || existing.version < fresh.version) this.orgs.set(orgId, fresh);
      return this.orgs.get(orgId)!;
    })();
    this.refreshing.set(orgId, work);
    return work.finally(() => this.refreshing.delete(orgId));
  }
}
