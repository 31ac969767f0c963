import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsNotEmpty, IsObject, IsOptional, IsString, MaxLength } from 'class-validator';
import { REVIEW_STATUSES, type ReviewStatus } from '@igw/kernel';
import { DECISION_KINDS, type DecisionKind } from './intent-cards.dto';
import { RequiredNested } from './dto-rules';
import { PageOf } from './common.dto';

/** The action an agent wants to take (spec: mcp-proxy request `action`). */
export class ProxyActionDto {
  @ApiProperty({ example: 'sdk', description: 'Where the call comes from (sdk, mcp, …).' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(64)
  surface!: string;

  @ApiProperty({ example: 'crm.contacts.read' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(256)
  operation!: string;

  @ApiPropertyOptional({ type: 'object', additionalProperties: true })
  @IsOptional()
  @IsObject({ message: 'arguments must be an object' })
  arguments?: Record<string, unknown>;

  @ApiPropertyOptional({ example: 'crm://contacts/42' })
  @IsOptional()
  @IsString()
  @MaxLength(512)
  target_resource?: string;
}

/** Body of POST /v1/mcp-proxy/call (with `X-Service-Mandate`). */
export class McpProxyCallDto {
  @RequiredNested(ProxyActionDto, 'action')
  action!: ProxyActionDto;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    description: 'Free-form; `actor`, `on_behalf_of`, `prompt_id` are checked against the mandate.',
  })
  @IsOptional()
  @IsObject({ message: 'context must be an object' })
  context?: Record<string, unknown>;

  @ApiProperty({ example: 'crm-api', description: "Must equal the mandate's `aud`." })
  @IsString()
  @IsNotEmpty()
  @MaxLength(256)
  audience!: string;
}

/**
 * A decision (spec: `decision` with `kind` plus kind-specific fields, DESIGN 6.9). Each kind
 * carries only its own fields; the others are absent.
 */
export class DecisionDto {
  @ApiProperty({ enum: DECISION_KINDS }) kind!: DecisionKind;
  @ApiProperty() decision_id!: string;
  @ApiPropertyOptional({ description: 'The card rule that decided, when one did.' }) rule_id?: string;
  @ApiPropertyOptional({
    description:
      '`approval`: the approval request opened (decide it in /v1/approvals). `allow`: the approval this call spent, when an approved request let it through.',
  })
  approval_request_id?: string;
  @ApiPropertyOptional({ description: '`defer`: the entry of the review queue (/v1/mcp-proxy/reviews).' }) review_id?: string;
  @ApiPropertyOptional({
    description:
      '`deny`: confused_deputy, forbidden_operation, scope_outside_intent, scope_invalid, rule_error, or the reason a card rule names (rule_denied when it names none).',
  })
  reason?: string;
  @ApiPropertyOptional({ description: '`deny`, `negotiate`, `deny_with_reroute`: what went wrong, for a person.' }) message?: string;
  @ApiPropertyOptional({ description: '`step_up`: the authentication context class (`acr`) the mandate must reach.' }) required_acr?: string;
  @ApiPropertyOptional({ description: '`deny_with_reroute`: the intent card to dispense a mandate against instead.' }) reroute_card_id?: string;
  @ApiPropertyOptional({ type: 'object', additionalProperties: true, description: '`allow_with_log_extra`: fields logged with the decision.' })
  log_fields?: Record<string, unknown>;
  @ApiPropertyOptional({
    type: [String],
    description:
      '`allow_with_redact`: fields to keep from the tool: `arguments.<path>` dropped from the arguments, `result.<path>` masked in the result, a bare path both.',
  })
  redact_fields?: string[];
  @ApiPropertyOptional({ type: 'object', additionalProperties: true, description: '`allow_with_downgrade`: the narrower action to run instead.' })
  downgraded_action?: Record<string, unknown>;
  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    description: "`negotiate`: the same action brought into the mandate's scope (operation and/or target_resource replaced); send it as a new call.",
  })
  suggested_action?: Record<string, unknown>;
  @ApiPropertyOptional({ type: 'object', additionalProperties: true, description: '`substitute`: the action to run instead of the one asked.' })
  replacement_action?: Record<string, unknown>;
  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    description: '`allow_with_shadow`: the blocking decision shadow mode let through (`kind` and its fields, no decision_id).',
  })
  shadow_decision?: Record<string, unknown>;
}

export class McpProxyMandateRefDto {
  @ApiProperty() cred_id!: string;
  @ApiProperty({ nullable: true, type: String, description: 'null: the mandate is bound to no prompt.' }) prompt_id!: string | null;
  @ApiProperty() intent_id!: string;
}

export class McpProxyCallResponseDto {
  @ApiProperty({ type: DecisionDto }) decision!: DecisionDto;
  @ApiProperty({ type: McpProxyMandateRefDto }) mandate!: McpProxyMandateRefDto;
}

export { REVIEW_STATUSES };

/** The HTTP status each decision kind answers with (spec 0.6.0, "Decision kinds and HTTP status"). */
export const DECISION_HTTP_STATUS: Readonly<Record<DecisionKind, 200 | 202 | 403 | 428>> = {
  allow: 200,
  allow_with_log_extra: 200,
  allow_with_redact: 200,
  allow_with_downgrade: 200,
  allow_with_shadow: 200,
  defer: 202,
  negotiate: 202,
  substitute: 202,
  approval: 428,
  step_up: 428,
  deny: 403,
  deny_with_reroute: 403,
};
export type ReviewStatusDto = ReviewStatus;

/** The call a mandate-path decision decided, as it was sent (DESIGN 6.16). */
export class DecisionCallDto {
  @ApiProperty({ type: ProxyActionDto }) action!: ProxyActionDto;
  @ApiPropertyOptional({ type: 'object', additionalProperties: true }) context?: Record<string, unknown>;
}

/** A recorded decision (`GET /v1/mcp-proxy/decisions/{decision_id}`): the decision as answered plus what it was about. */
export class DecisionRecordDto {
  @ApiProperty() decision_id!: string;
  @ApiProperty({ type: DecisionDto }) decision!: DecisionDto;
  @ApiProperty() cred_id!: string;
  @ApiProperty() intent_id!: string;
  @ApiProperty({ nullable: true, type: String, description: 'null: the mandate is bound to no prompt.' }) prompt_id!: string | null;
  @ApiProperty() actor!: string;
  @ApiProperty() audience!: string;
  @ApiProperty() surface!: string;
  @ApiProperty() operation!: string;
  @ApiProperty({ nullable: true, type: String, description: 'null: the action named no target resource.' }) target_resource!: string | null;
  @ApiProperty({ description: 'sha256 of the canonical JSON of action.arguments (the arguments themselves are not stored).' }) arguments_sha256!: string;
  @ApiProperty() requested_by_key_id!: string;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiPropertyOptional({
    type: DecisionCallDto,
    nullable: true,
    description:
      'Only in the decision list with `include=call`: the action and context as decided, while kept (`CALL_RETENTION_DAYS`); null once purged, when retention is off, or when the call was over the size cap.',
  })
  call?: DecisionCallDto | null;
}

/** A deferred call on the review queue (decision kind `defer`). */
export class ReviewDto extends DecisionRecordDto {
  @ApiProperty() review_id!: string;
  @ApiProperty({ enum: REVIEW_STATUSES }) status!: ReviewStatusDto;
  @ApiProperty({ format: 'date-time', nullable: true, type: String, description: 'null while pending.' }) reviewed_at!: string | null;
  @ApiProperty({ nullable: true, type: String, description: 'The API key that resolved it; null while pending.' }) reviewed_by_key_id!: string | null;
  @ApiProperty({ nullable: true, type: String, description: "The resolver's note, if any." }) note!: string | null;
}

export class ReviewListDto extends PageOf(ReviewDto) {}

export class DecisionRecordListDto extends PageOf(DecisionRecordDto) {}

/** Body of POST /v1/mcp-proxy/reviews/{review_id}/resolve. */
export class ResolveReviewDto {
  @ApiProperty({ enum: ['accepted', 'rejected'] })
  @IsIn(['accepted', 'rejected'], { message: 'status must be "accepted" or "rejected"' })
  status!: 'accepted' | 'rejected';

  @ApiPropertyOptional({ maxLength: 1000 })
  @IsOptional()
  @IsString()
  @MaxLength(1000)
  note?: string;
}
