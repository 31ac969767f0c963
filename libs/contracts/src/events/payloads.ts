import { plainToInstance, Type } from 'class-transformer';
import { IsArray, IsBoolean, IsIn, IsInt, IsISO8601, IsNumber, Max, IsObject, IsOptional, IsString, Min, ValidateNested, validateSync } from 'class-validator';
import { DECISION_KINDS, EVALUATION_OUTCOMES, SCOPES, type DecisionKind, type EvaluationOutcome, type Scope } from '@igw/kernel';
import { DataElementDto, INTENT_CLASSES, INTENTION_STATUSES, type IntentClass, type IntentionStatus } from '../http/intentions.dto';
import type { CardRule } from '../http/intent-cards.dto';
import {
  APPROVAL_REASON_CODES,
  APPROVAL_SOURCES,
  APPROVAL_STATUSES,
  ApprovalCandidateDto,
  type ApprovalReasonCode,
  type ApprovalSource,
  type ApprovalStatus,
} from '../http/approvals.dto';
import type { EventEnvelope } from './event-envelope';
import { Topics, type TopicName } from './topics';

/** intention.created / published / archived / updated v1: the whole intention after the change. */
export class IntentionEventV1 {
  @IsString() id!: string;
  @IsString() label!: string;
  @IsString() display_name!: string;
  @IsString() description!: string;
  @IsIn(INTENT_CLASSES) intent_class!: IntentClass;
  @IsIn(INTENTION_STATUSES) status!: IntentionStatus;
  @IsBoolean() approval_required!: boolean;
  @IsInt() @Min(1) ttl_minutes!: number;
  @IsArray() @ValidateNested({ each: true }) @Type(() => DataElementDto) data_elements!: DataElementDto[];
  /** Tool-name bindings (DESIGN 6.15); absent in events written before bindings existed = []. */
  @IsOptional() @IsArray() @IsString({ each: true }) tools?: string[];
  @IsInt() @Min(1) version!: number;
  /** Per-org counter of intention changes: read models compare it to know they are current. */
  @IsInt() @Min(1) org_version!: number;
  @IsISO8601() created_at!: string;
  @IsISO8601() updated_at!: string;
}

/**
 * intention_example.added / removed v1: one example of an intention (DESIGN 6.15). Examples share
 * the org's intentions counter (`org_version`), so the evaluator's read model of active
 * intentions stays exact with them; `removed: true` on removal.
 */
export class IntentionExampleEventV1 {
  @IsString() id!: string;
  @IsString() intention_id!: string;
  @IsObject() tool_call!: { name: string; arguments?: Record<string, unknown> };
  @IsOptional() @IsArray() conversation_context?: { role: string; content: string }[];
  @IsBoolean() covered!: boolean;
  @IsIn(['manual', 'approval']) source!: 'manual' | 'approval';
  @IsOptional() @IsString() approval_id!: string | null;
  @IsInt() @Min(1) org_version!: number;
  @IsOptional() @IsBoolean() removed?: boolean;
  @IsISO8601() created_at!: string;
}

/** intent_card.installed v1: the whole card; intent_card.deleted v1 carries `deleted: true`. */
export class IntentCardEventV1 {
  @IsString() id!: string;
  @IsString() name!: string;
  @IsString() description!: string;
  @IsObject() allowed_scope!: { operations: string[]; resources: string[]; forbidden_operations: string[] };
  @IsArray() @IsString({ each: true }) audiences!: string[];
  @IsInt() @Min(1) max_ttl_seconds!: number;
  @IsBoolean() shadow!: boolean;
  @IsArray() rules!: CardRule[];
  @IsInt() @Min(1) version!: number;
  @IsInt() @Min(1) org_version!: number;
  @IsOptional() @IsBoolean() deleted?: boolean;
  @IsISO8601() created_at!: string;
  @IsISO8601() updated_at!: string;
}

export class OrgCreatedV1 {
  @IsString() id!: string;
  @IsString() name!: string;
  @IsISO8601() created_at!: string;
}

export class ApiKeyEventV1 {
  @IsString() id!: string;
  @IsString() name!: string;
  @IsIn(SCOPES) scope!: Scope;
  @IsISO8601() created_at!: string;
  @IsOptional() @IsISO8601() revoked_at?: string | null;
}

export { EVALUATION_OUTCOMES, type EvaluationOutcome };

/** intent.evaluated v1: the recorded intent event (the shape GET /v1/intent/history returns). */
export class IntentEvaluatedV1 {
  @IsString() id!: string;
  @IsIn(EVALUATION_OUTCOMES) outcome!: EvaluationOutcome;
  @IsString() intent_label!: string;
  @IsIn(INTENT_CLASSES) intent_class!: IntentClass;
  @IsNumber() @Min(0) @Max(1) confidence!: number;
  @IsString() tool_name!: string;
  @IsOptional() @IsString() user_id!: string | null;
  @IsOptional() @IsString() session_id!: string | null;
  @IsOptional() @IsString() conversation_id!: string | null;
  @IsBoolean() shadow_mode!: boolean;
  @IsString() policy_id!: string;
  @IsOptional() @IsString() approval_request_id!: string | null;
  @IsArray() @IsString({ each: true }) data_elements!: string[];
  @IsInt() @Min(0) processing_time_ms!: number;
  @IsISO8601() created_at!: string;
}

/** approval.requested / approved / denied / expired v1: the whole approval after the change. */
export class ApprovalEventV1 {
  @IsString() id!: string;
  @IsIn(APPROVAL_STATUSES) status!: ApprovalStatus;
  @IsIn(APPROVAL_SOURCES) source!: ApprovalSource;
  @IsOptional() @IsString() intent_label!: string | null;
  @IsOptional() @IsString() intent_card_id!: string | null;
  @IsOptional() @IsString() tool_name!: string | null;
  @IsOptional() @IsString() operation!: string | null;
  @IsString() summary!: string;
  @IsString() requested_by_key_id!: string;
  @IsOptional() @IsString() user_id!: string | null;
  @IsISO8601() created_at!: string;
  @IsISO8601() expires_at!: string;
  @IsOptional() @IsISO8601() decided_at!: string | null;
  @IsOptional() @IsString() decided_by_key_id!: string | null;
  @IsOptional() @IsString() reason!: string | null;
  /**
   * Legacy path (DESIGN 6.15), so subscribers see why the call waits and what it is: null on
   * mandate-path requests; absent from events written before these fields existed.
   */
  @IsOptional() @IsIn(APPROVAL_REASON_CODES) reason_code?: ApprovalReasonCode | null;
  @IsOptional() @IsArray() @ValidateNested({ each: true }) @Type(() => ApprovalCandidateDto) candidates?: ApprovalCandidateDto[];
  @IsOptional() @IsObject() tool_call?: { name: string; arguments?: Record<string, unknown> } | null;
}

/**
 * mandate.dispensed / refreshed / revoked v1: the mandate as inspect shows it after the change
 * (never the credential), without the classification evidence.
 */
export class MandateEventV1 {
  @IsString() cred_id!: string;
  @IsString() actor!: string;
  @IsString() intent_id!: string;
  /** null: the mandate is bound to no prompt. */
  @IsOptional() @IsString() prompt_id!: string | null;
  @IsString() audience!: string;
  @IsObject() scope!: { operations: string[]; resources: string[]; forbidden_operations: string[] };
  @IsIn(['active', 'expired', 'revoked']) status!: 'active' | 'expired' | 'revoked';
  @IsString() kid!: string;
  @IsISO8601() issued_at!: string;
  @IsISO8601() expires_at!: string;
  @IsOptional() @IsISO8601() revoked_at!: string | null;
  @IsOptional() @IsString() revoke_reason!: string | null;
  @IsInt() @Min(0) refresh_count!: number;
  @IsOptional() @IsIn(['vault', 'conjur']) broker_kind!: 'vault' | 'conjur' | null;
  /**
   * mandate.revoked only: the org's revocation counter after this revocation (board key
   * `revocations:{org}`); a verifier that applied it is current up to this version.
   */
  @IsOptional() @IsInt() @Min(1) revocation_version?: number | null;
}

/** decision.made v1: one decision of the proxy (DESIGN 6.9), without the call's arguments. */
export class DecisionMadeV1 {
  @IsString() decision_id!: string;
  @IsIn(DECISION_KINDS) kind!: DecisionKind;
  @IsOptional() @IsString() rule_id!: string | null;
  @IsOptional() @IsString() reason!: string | null;
  @IsOptional() @IsIn(DECISION_KINDS) shadow_decision!: DecisionKind | null;
  @IsString() cred_id!: string;
  @IsString() intent_id!: string;
  /** null: the mandate is bound to no prompt. */
  @IsOptional() @IsString() prompt_id!: string | null;
  @IsString() actor!: string;
  @IsString() surface!: string;
  @IsString() operation!: string;
  @IsOptional() @IsString() target_resource!: string | null;
  @IsISO8601() created_at!: string;
}

const payloadClasses: Record<TopicName, new () => object> = {
  [Topics.OrgCreated.name]: OrgCreatedV1,
  [Topics.ApiKeyCreated.name]: ApiKeyEventV1,
  [Topics.ApiKeyRevoked.name]: ApiKeyEventV1,
  [Topics.IntentionCreated.name]: IntentionEventV1,
  [Topics.IntentionPublished.name]: IntentionEventV1,
  [Topics.IntentionArchived.name]: IntentionEventV1,
  [Topics.IntentionUpdated.name]: IntentionEventV1,
  [Topics.IntentionExampleAdded.name]: IntentionExampleEventV1,
  [Topics.IntentionExampleRemoved.name]: IntentionExampleEventV1,
  [Topics.IntentCardInstalled.name]: IntentCardEventV1,
  [Topics.IntentCardDeleted.name]: IntentCardEventV1,
  [Topics.IntentEvaluated.name]: IntentEvaluatedV1,
  [Topics.ApprovalRequested.name]: ApprovalEventV1,
  [Topics.ApprovalApproved.name]: ApprovalEventV1,
  [Topics.ApprovalDenied.name]: ApprovalEventV1,
  [Topics.ApprovalExpired.name]: ApprovalEventV1,
  [Topics.MandateDispensed.name]: MandateEventV1,
  [Topics.MandateRefreshed.name]: MandateEventV1,
  [Topics.MandateRevoked.name]: MandateEventV1,
  [Topics.DecisionMade.name]: DecisionMadeV1,
};

export class InvalidEventError extends Error {}

/**
 * Consumers call this before acting: an event whose payload does not match its topic's
 * versioned class is rejected (and would otherwise poison a read model).
 */
export function parseEvent<T extends object>(envelope: EventEnvelope): T {
  const cls = payloadClasses[envelope.type as TopicName];
  if (!cls) throw new InvalidEventError(`unknown event type ${envelope.type}`);
  const data = plainToInstance(cls, envelope.data);
  const errors = validateSync(data, { forbidUnknownValues: true });
  const [first] = errors;
  if (first) {
    throw new InvalidEventError(`${envelope.type} ${envelope.id}: ${first.property} ${Object.values(first.constraints ?? {})[0] ?? 'is invalid'}`);
  }
  return data as T;
}
