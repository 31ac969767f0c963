import { Inject, Injectable } from '@nestjs/common';
import { DependencyUnavailableError } from '@igw/kernel';
import { POLICY_REGISTRY_API, type IntentionEventV1, type PolicyRegistryApi } from '@igw/contracts';
import { intentionsKey, VERSION_BOARD, type VersionBoard } from '@igw/events';
import { LexicalClassifier, LexicalIndex, type IntentionDocument, type QueryTerm, type SearchHit } from '../../domain/classification';

/** What evaluation needs of an active intention beyond what the classifier indexes. */
export interface ActiveIntention extends IntentionDocument {
  approvalRequired: boolean;
  ttlMinutes: number;
  version: number;
}

/** One org's active intentions at one registry version (also the classification cascade's `CascadeOrg`). */
export interface OrgIntentions {
  readonly orgId: string;
  readonly version: number;
  readonly classifier: LexicalClassifier;
  /** Number of active intentions. */
  readonly size: number;
  intention(id: string): ActiveIntention | undefined;
  /** Every active intention (a fresh array; no order promised). */
  documents(): ActiveIntention[];
  /** The lexical index's top-k for a weighted query (`LexicalIndex.search`). */
  search(query: readonly QueryTerm[], k: number): SearchHit[];
}

class OrgModel implements OrgIntentions {
  readonly index = new LexicalIndex();
  readonly classifier = new LexicalClassifier(this.index);
  readonly byId = new Map<string, ActiveIntention>();
  constructor(
    readonly orgId: string,
    public version: number,
  ) {}

  get size(): number {
    return this.byId.size;
  }

  intention(id: string): ActiveIntention | undefined {
    return this.byId.get(id);
  }

  documents(): ActiveIntention[] {
    return [...this.byId.values()];
  }

  search(query: readonly QueryTerm[], k: number): SearchHit[] {
    return this.index.search(query, k);
  }

  apply(e: IntentionEventV1): void {
    const doc = toActiveIntention(e);
    this.index.sync(doc);
    if (e.status === 'active') this.byId.set(e.id, doc);
    else this.byId.delete(e.id);
  }
}

const toActiveIntention = (e: IntentionEventV1): ActiveIntention => ({
  id: e.id,
  label: e.label,
  displayName: e.display_name,
  description: e.description,
  intentClass: e.intent_class,
  status: e.status,
  dataElements: e.data_elements.map((d) => ({ dataSourceId: d.data_source_id, path: d.path })),
  approvalRequired: e.approval_required,
  ttlMinutes: e.ttl_minutes,
  version: e.version,
});

/**
 * The org's active intentions in memory, exact on every call: the registry advances a per-org
 * version on the version board before it answers a change, and this model compares its own
 * version with the board on each call. Events move it forward one version at a time; a gap (or a
 * cold start) triggers a synchronous refresh from the registry. When the board or the registry
 * cannot be reached the call fails closed (503), never evaluates against a stale policy.
 */
@Injectable()
export class ActiveIntentionsReadModel {
  private readonly orgs = new Map<string, OrgModel>();
  private readonly refreshing = new Map<string, Promise<OrgModel>>();

  constructor(
    @Inject(VERSION_BOARD) private readonly board: VersionBoard,
    @Inject(POLICY_REGISTRY_API) private readonly registry: Pick<PolicyRegistryApi, 'activeIntentions'>,
  ) {}

  async forOrg(orgId: string): Promise<OrgIntentions> {
    let current: number;
    try {
      current = await this.board.current(intentionsKey(orgId));
    } catch (err) {
      throw new DependencyUnavailableError('policy version board', err);
    }
    const model = this.orgs.get(orgId);
    if (model && model.version >= current) return model;
    // A refresh already running may have read before the change this call was told about: once more.
    let fresh = await this.refresh(orgId, current);
    if (fresh.version < current) fresh = await this.refresh(orgId, current);
    return fresh;
  }

  /** Applies an intention event if it is the next version; anything else waits for a refresh. */
  apply(orgId: string, event: IntentionEventV1): void {
    const model = this.orgs.get(orgId);
    if (!model || event.org_version !== model.version + 1) return;
    model.apply(event);
    model.version = event.org_version;
  }

  private refresh(orgId: string, atLeast: number): Promise<OrgModel> {
    const running = this.refreshing.get(orgId);
    if (running) return running;
    const work = (async () => {
      let snapshot;
      try {
        snapshot = await this.registry.activeIntentions(orgId);
      } catch (err) {
        throw new DependencyUnavailableError('policy-registry', err);
      }
      // The board is advanced after commit, so a snapshot read now is at least as new.
      if (snapshot.version < atLeast) throw new DependencyUnavailableError('policy-registry (snapshot older than the published version)');
      const model = new OrgModel(orgId, snapshot.version);
      for (const e of snapshot.intentions) model.apply(e);
      const existing = this.orgs.get(orgId);
      if (!existing || existing.version < model.version) this.orgs.set(orgId, model);
      return this.orgs.get(orgId)!;
    })();
    this.refreshing.set(orgId, work);
    return work.finally(() => this.refreshing.delete(orgId));
  }
}
