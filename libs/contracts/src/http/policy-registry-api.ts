import { Type } from 'class-transformer';
import { IsArray, IsInt, IsOptional, IsString, Min, ValidateNested } from 'class-validator';
import { IntentCardEventV1, IntentionEventV1, IntentionExampleEventV1 } from '../events/payloads';
import type { TaughtExamplesDto, TeachFromApprovalDto } from './intention-examples.dto';
import type { InstallIntentCardDto, IntentCardDto } from './intent-cards.dto';
import type { IntentionChangeDto } from './replays.dto';

/**
 * An org's active intentions as of one version of its intentions counter, read in one consistent
 * snapshot: `intentions` is exactly the set of active intentions after change number `version`
 * (0 when the org never changed any). Each intention has the shape of the `policy.intention.*`
 * event payload, with `org_version` equal to `version`, so a read model can load it the same way
 * it applies events. Newest first.
 */
export class ActiveIntentionsDto {
  @IsInt() @Min(0) version!: number;
  @IsArray() @ValidateNested({ each: true }) @Type(() => IntentionEventV1) intentions!: IntentionEventV1[];
  /**
   * The examples of the org's draft and active intentions (DESIGN 6.15), in the shape of the
   * `policy.intention_example.added` payload, as of the same `version`: drafts' too, so a reader
   * that applies a later publish event holds that intention's examples. Absent from a registry
   * that predates examples (= none).
   */
  @IsOptional() @IsArray() @ValidateNested({ each: true }) @Type(() => IntentionExampleEventV1) examples?: IntentionExampleEventV1[];
}

/**
 * An org's installed intent cards as of one version of its cards counter
 * (`org_versions.cards_version`), read in one consistent snapshot: `cards` is exactly the set of
 * installed cards after change number `version` (0 when the org never changed any). Each card has
 * the shape of the `policy.intent_card.*` event payload, with `org_version` equal to `version` and
 * no `deleted` (a deleted card is simply absent), so a read model can load it the same way it
 * applies events. Newest first (created_at desc, id desc).
 */
export class IntentCardsSnapshotDto {
  @IsInt() @Min(0) version!: number;
  @IsArray() @ValidateNested({ each: true }) @Type(() => IntentCardEventV1) cards!: IntentCardEventV1[];
}

/**
 * The orgs an owner holds state for (`GET /internal/orgs?with=…` on the registry,
 * `GET /internal/mandates/revocation-orgs` on the issuer): what a read model loads at start,
 * before its process reports ready.
 */
export class OrgIdsDto {
  @IsArray() @IsString({ each: true }) org_ids!: string[];
}

/** Which of an org's counters `orgsWith` asks about. */
export type RegistryCounter = 'intentions' | 'cards';

/**
 * How other services read policy-registry state synchronously: in-process in embedded mode
 * (POLICY_REGISTRY_API, exported by PolicyRegistryModule), over HTTP in distributed mode
 * (`GET /internal/intentions/active`, `GET /internal/intent-cards`, `GET /internal/intent-cards/{id}`
 * on the registry, internal token, caller headers naming the org — the org is the caller's, never
 * a parameter; `GET /internal/orgs` lists org ids only, for a reader's warm start).
 */
export interface PolicyRegistryApi {
  activeIntentions(orgId: string): Promise<ActiveIntentionsDto>;
  /** One installed intent card of the org (`GET /internal/intent-cards/{id}`); null when it has none with this id. */
  intentCard(orgId: string, id: string): Promise<IntentCardDto | null>;
  /** All installed intent cards of the org and the cards counter they correspond to (`GET /internal/intent-cards`). */
  intentCards(orgId: string): Promise<IntentCardsSnapshotDto>;
  /** Every org whose intentions (or cards) ever changed (`GET /internal/orgs?with=…`, a service route). */
  orgsWith(counter: RegistryCounter): Promise<OrgIdsDto>;
  /**
   * Stores what an operator taught from an approval (`remember: true`): every example or none,
   * committed (and the read models' version announced) before it resolves; idempotent on
   * `approval_id`. 404 `intent_not_found` when a label names no active intention of the org,
   * 409 `example_limit` when an intention holds its maximum (`POST /internal/intention-examples/teach`).
   */
  teach(orgId: string, request: TeachFromApprovalDto): Promise<TaughtExamplesDto>;
  /** Removes what `teach` stored for this approval: the compensation when the decision itself failed (`DELETE /internal/intention-examples/taught/{approval_id}`). */
  forgetTaught(orgId: string, approvalId: string): Promise<void>;
  /**
   * What the org's active intentions would be with these draft changes applied in order (DESIGN
   * 6.16, what-if replay), validated exactly as the real create / update / archive and stored
   * nowhere: a created intention counts as active, an updated draft too (previewing its publish),
   * an archived one is gone. Same refusals as the real writes, each detail's path under
   * `changes[i].intention` (400), 404 `not_found` for an id the org does not have, 409
   * `invalid_transition` for an archived one (`POST /internal/intentions/preview`).
   */
  previewIntentionChanges(orgId: string, changes: IntentionChangeDto[]): Promise<ActiveIntentionsDto>;
  /**
   * What the org's installed cards would be with this draft card installed (DESIGN 6.16, what-if
   * replay of a card), validated exactly as the real install and stored nowhere: the same id
   * replaces the installed card (its version + 1), another id adds it. The install's 400s, each
   * detail's path under `card.` (`POST /internal/intent-cards/preview`). The draft comes first;
   * `version` is the installed cards' counter and each card's `org_version` is `version + 1`.
   */
  previewIntentCard(orgId: string, card: InstallIntentCardDto): Promise<IntentCardsSnapshotDto>;
}

export const POLICY_REGISTRY_API = Symbol('POLICY_REGISTRY_API');
