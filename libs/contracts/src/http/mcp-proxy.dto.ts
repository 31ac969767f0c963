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

/** A decision (spec: `decision` with `kind` plus kind-specific fields, DESIGN 6.9). */
export class DecisionDto {
  @ApiProperty({ enum: DECISION_KINDS }) kind!: DecisionKind;
  @ApiProperty() decision_id!: string;
  @ApiPropertyOptional({ description: 'The card rule that decided, when one did.' }) rule_id?: string;
  [field: string]: unknown;
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
  @ApiPropertyOptional({ nullable: true, type: String }) target_resource!: string | null;
  @ApiProperty({ description: 'sha256 of the canonical JSON of action.arguments (the arguments themselves are not stored).' }) arguments_sha256!: string;
  @ApiProperty() requested_by_key_id!: string;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
}

/** A deferred call on the review queue (decision kind `defer`). */
export class ReviewDto extends DecisionRecordDto {
  @ApiProperty() review_id!: string;
  @ApiProperty({ enum: REVIEW_STATUSES }) status!: ReviewStatusDto;
  @ApiPropertyOptional({ format: 'date-time', nullable: true, type: String }) reviewed_at!: string | null;
  @ApiPropertyOptional({ nullable: true, type: String }) reviewed_by_key_id!: string | null;
  @ApiPropertyOptional({ nullable: true, type: String }) note!: string | null;
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
