import { Inject, Injectable } from '@nestjs/common';
import { POLICY_REGISTRY_API, type IntentCardEventV1, type PolicyRegistryApi } from '@igw/contracts';
import { cardsKey, ExactReadModel, VERSION_BOARD, type OrgState, type ReadModelSource, type VersionBoard } from '@igw/events';
import { CompiledCardCache, type CompiledCard } from '../../domain';

/** One org's installed cards at one version of its cards counter, compiled. */
class OrgCards implements OrgState {
  readonly cards = new Map<string, CompiledCard>();
  constructor(
    readonly orgId: string,
    public version: number,
    private readonly compiled: CompiledCardCache,
  ) {}

  /** The org as of the registry's snapshot. */
  static of(orgId: string, snapshot: { version: number; cards: readonly IntentCardEventV1[] }, compiled: CompiledCardCache): OrgCards {
    const org = new OrgCards(orgId, snapshot.version, compiled);
    for (const c of snapshot.cards) org.apply(c);
    return org;
  }

  apply(e: IntentCardEventV1): void {
    if (e.deleted) this.cards.delete(e.id);
    // A card version is compiled once, however many snapshots carry it.
    else this.cards.set(e.id, this.compiled.get(this.orgId, e));
  }
}

/**
 * The org's intent cards in memory, compiled once per card version, exact on every call (the
 * shared ExactReadModel): the registry advances the org's cards counter on the version board after
 * each commit and before it answers, and the caller passes the board's value read for this call.
 * Events move the model one version at a time; a gap, an org not loaded yet or a cold start loads
 * a snapshot from the registry while the call waits; every org with cards is loaded at start. When
 * the registry cannot be reached while the model is behind, the call fails closed (503).
 */
@Injectable()
export class IntentCardsReadModel {
  readonly model: ExactReadModel<OrgCards>;
  private readonly compiled = new CompiledCardCache(10_000);

  constructor(@Inject(POLICY_REGISTRY_API) registry: Pick<PolicyRegistryApi, 'intentCards' | 'orgsWith'>, @Inject(VERSION_BOARD) board: VersionBoard) {
    const source: ReadModelSource<OrgCards> = {
      load: async (orgId) => OrgCards.of(orgId, await registry.intentCards(orgId), this.compiled),
      orgs: async () => (await registry.orgsWith('cards')).org_ids,
    };
    this.model = ExactReadModel.over(board, cardsKey, { name: 'intent cards', owner: 'policy-registry' }, source);
  }

  /** The org's card `id` as of at least `boardVersion`; null when the org has no such card. */
  card(orgId: string, id: string, boardVersion: number): CompiledCard | null | Promise<CompiledCard | null> {
    const org = this.model.at(orgId, boardVersion);
    // Synchronous on the hot path: no promise, no microtask, when the model is current.
    if (!(org instanceof Promise)) return org.cards.get(id) ?? null;
    return org.then((fresh) => fresh.cards.get(id) ?? null);
  }

  /** Applies a card event if it is the next version of its org; anything else waits for a load. */
  apply(orgId: string, event: IntentCardEventV1): void {
    this.model.applyNext(orgId, event.org_version, (org) => org.apply(event));
  }
}
