import { Inject, Injectable } from '@nestjs/common';
import {
  POLICY_REGISTRY_API,
  type ActiveIntentionsDto,
  type IntentClass,
  type IntentionEventV1,
  type IntentionExampleEventV1,
  type PolicyRegistryApi,
} from '@igw/contracts';
import { ExactReadModel, intentionsKey, VERSION_BOARD, type ReadModelSource, type VersionBoard } from '@igw/events';
import {
  ExampleIndex,
  LexicalClassifier,
  LexicalIndex,
  normalizedName,
  type IntentionDocument,
  type QueryTerm,
  type SearchHit,
} from '../../domain/classification';

/** What evaluation needs of an active intention beyond what the classifier indexes. */
export interface ActiveIntention extends IntentionDocument {
  approvalRequired: boolean;
  ttlMinutes: number;
  version: number;
  /** Tool-name patterns it covers exactly (DESIGN 6.15). */
  tools: readonly string[];
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
  /** Active intentions that have `tools`. */
  bound(): readonly ActiveIntention[];
  /** Active intentions whose normalized label is this (see `normalizedName`). */
  named(normalizedLabel: string): readonly ActiveIntention[];
  /** An active intention by label. */
  byLabel(label: string): ActiveIntention | undefined;
  /** The examples of the active intentions. */
  readonly examples: ExampleIndex;
  /** The lexical index's top-k for a weighted query (`LexicalIndex.search`). */
  search(query: readonly QueryTerm[], k: number): SearchHit[];
}

class OrgModel implements OrgIntentions {
  // `version` is written by the read model as events apply (OrgState).
  readonly index = new LexicalIndex<IntentClass>();
  readonly classifier = new LexicalClassifier(this.index);
  readonly byId = new Map<string, ActiveIntention>();
  readonly examples = new ExampleIndex();
  /** Every example of a draft or active intention, so a publish brings a draft's examples into `examples`. */
  private readonly allExamples = new Map<string, IntentionExampleEventV1>();
  /** Lookups derived from `byId`, built on first use after a change. */
  private views: { bound: ActiveIntention[]; named: Map<string, ActiveIntention[]>; byLabel: Map<string, ActiveIntention> } | null = null;
  constructor(
    readonly orgId: string,
    public version: number,
  ) {}

  /** The org as of the registry's snapshot. */
  static of(orgId: string, snapshot: { version: number; intentions: readonly IntentionEventV1[]; examples?: readonly IntentionExampleEventV1[] }): OrgModel {
    const model = new OrgModel(orgId, snapshot.version);
    for (const e of snapshot.intentions) model.apply(e);
    for (const e of snapshot.examples ?? []) model.applyExample(e);
    return model;
  }

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

  bound(): readonly ActiveIntention[] {
    return this.derived().bound;
  }

  named(normalizedLabel: string): readonly ActiveIntention[] {
    return this.derived().named.get(normalizedLabel) ?? [];
  }

  byLabel(label: string): ActiveIntention | undefined {
    return this.derived().byLabel.get(label);
  }

  private derived(): NonNullable<OrgModel['views']> {
    if (this.views) return this.views;
    const views: NonNullable<OrgModel['views']> = { bound: [], named: new Map(), byLabel: new Map() };
    for (const d of this.byId.values()) {
      if (d.tools.length > 0) views.bound.push(d);
      const key = normalizedName(d.label);
      views.named.set(key, [...(views.named.get(key) ?? []), d]);
      views.byLabel.set(d.label, d);
    }
    return (this.views = views);
  }

  apply(e: IntentionEventV1): void {
    const doc = toActiveIntention(e);
    this.index.sync(doc);
    this.views = null;
    if (e.status === 'active') {
      const published = !this.byId.has(e.id);
      this.byId.set(e.id, doc);
      // A publish brings the draft's examples in; an update of an active intention keeps them.
      if (published) for (const x of this.allExamples.values()) if (x.intention_id === e.id) this.examples.add(exampleOf(x));
    } else {
      this.byId.delete(e.id);
      this.examples.removeIntention(e.id);
      // Archived is final: its examples can never decide again.
      if (e.status === 'archived') for (const [id, x] of this.allExamples) if (x.intention_id === e.id) this.allExamples.delete(id);
    }
  }

  applyExample(e: IntentionExampleEventV1): void {
    if (e.removed) {
      this.allExamples.delete(e.id);
      this.examples.remove(e.id);
      return;
    }
    this.allExamples.set(e.id, e);
    if (this.byId.has(e.intention_id)) this.examples.add(exampleOf(e));
  }
}

/**
 * An org's intentions from a registry snapshot, outside the read model: what-if replay decides
 * against the active set plus a draft (PolicyRegistryApi.previewIntentionChanges) without ever
 * touching the live model.
 */
export function orgIntentionsOf(orgId: string, snapshot: ActiveIntentionsDto): OrgIntentions {
  return OrgModel.of(orgId, snapshot);
}

const exampleOf = (e: IntentionExampleEventV1) => ({ id: e.id, intentionId: e.intention_id, covered: e.covered, toolCall: e.tool_call });

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
  tools: e.tools ?? [],
});

/**
 * The org's active intentions in memory, exact on every call (the shared ExactReadModel): the
 * registry advances a per-org version on the version board before it answers a change, and this
 * model compares its own version with the board on each call. Events move it forward one version
 * at a time; a gap, an org not loaded yet or a cold start loads the registry's snapshot while the
 * call waits; every org with intentions is loaded at start. When the board or the registry cannot
 * be reached the call fails closed (503), never evaluates against a stale policy.
 */
@Injectable()
export class ActiveIntentionsReadModel {
  readonly model: ExactReadModel<OrgModel>;

  constructor(@Inject(VERSION_BOARD) board: VersionBoard, @Inject(POLICY_REGISTRY_API) registry: Pick<PolicyRegistryApi, 'activeIntentions' | 'orgsWith'>) {
    const source: ReadModelSource<OrgModel> = {
      load: async (orgId) => OrgModel.of(orgId, await registry.activeIntentions(orgId)),
      orgs: async () => (await registry.orgsWith('intentions')).org_ids,
    };
    this.model = ExactReadModel.over(board, intentionsKey, { name: 'active intentions', owner: 'policy-registry' }, source);
  }

  forOrg(orgId: string): Promise<OrgIntentions> {
    return this.model.current(orgId);
  }

  /** Applies an intention event if it is the next version; anything else waits for a load. */
  apply(orgId: string, event: IntentionEventV1): void {
    this.model.applyNext(orgId, event.org_version, (model) => model.apply(event));
  }

  /** Applies an example event (examples share the intentions counter) the same way. */
  applyExample(orgId: string, event: IntentionExampleEventV1): void {
    this.model.applyNext(orgId, event.org_version, (model) => model.applyExample(event));
  }
}
