import { ApiProperty, ApiPropertyOptional, getSchemaPath } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsNotEmpty,
  IsNumber,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';

import { APPROVAL_REASON_CODES, APPROVAL_SOURCES, APPROVAL_STATUSES, type ApprovalReasonCode, type ApprovalSource, type ApprovalStatus } from '@igw/kernel';
import { LABEL_PATTERN, PageOf } from './common.dto';
import { ConversationMessageDto, OptionalConversation, ToolCallDto } from './intent-evaluation.dto';

/** `APPROVAL_REASON_CODES`: why a call waits for a human (DESIGN 6.15); a closed vocabulary of `@igw/kernel`. */
export { APPROVAL_REASON_CODES, APPROVAL_SOURCES, APPROVAL_STATUSES, type ApprovalReasonCode, type ApprovalSource, type ApprovalStatus };

/** A candidate intention of an uncertain match, best first. */
export class ApprovalCandidateDto {
  @ApiProperty({ example: 'crm.contact_lookup' }) @IsString() @Matches(LABEL_PATTERN) intent_label!: string;
  @ApiProperty() @IsString() @MaxLength(128) intention_id!: string;
  @ApiProperty({ minimum: 0, maximum: 1 }) @IsNumber() @Min(0) @Max(1) confidence!: number;
}

/** An approval request (DESIGN 6.10). */
export class ApprovalDto {
  @ApiProperty() id!: string;
  @ApiProperty() org_id!: string;
  @ApiProperty({ enum: APPROVAL_STATUSES }) status!: ApprovalStatus;
  @ApiProperty({ enum: APPROVAL_SOURCES }) source!: ApprovalSource;
  @ApiPropertyOptional({ nullable: true, type: String }) intent_label!: string | null;
  @ApiPropertyOptional({ nullable: true, type: String }) intent_card_id!: string | null;
  @ApiPropertyOptional({ nullable: true, type: String }) tool_name!: string | null;
  @ApiPropertyOptional({ nullable: true, type: String }) operation!: string | null;
  @ApiProperty() summary!: string;
  @ApiProperty({ description: 'The API key whose call caused the request; it cannot decide it (403 self_approval).' }) requested_by_key_id!: string;
  @ApiPropertyOptional({ nullable: true, type: String }) user_id!: string | null;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({
    format: 'date-time',
    description: 'Until then a pending request can be decided; an approved one lets the same call through once until then.',
  })
  expires_at!: string;
  @ApiPropertyOptional({ format: 'date-time', nullable: true, type: String }) decided_at!: string | null;
  @ApiPropertyOptional({ nullable: true, type: String }) decided_by_key_id!: string | null;
  @ApiPropertyOptional({ nullable: true, type: String }) reason!: string | null;
  @ApiPropertyOptional({
    enum: [...APPROVAL_REASON_CODES, null] as unknown as string[],
    nullable: true,
    type: String,
    description:
      '`uncertain_match`: the classifier was not certain; `intent_label` is its best candidate and `candidates` lists them. null on mandate-path requests.',
  })
  reason_code!: ApprovalReasonCode | null;
  @ApiProperty({ type: [ApprovalCandidateDto], description: 'With `uncertain_match`: the candidate intentions, best first; otherwise empty.' })
  candidates!: ApprovalCandidateDto[];
  // OpenAPI 3.0 has no nullable $ref: a null is the second alternative (so examples with null validate).
  @ApiPropertyOptional({
    oneOf: [{ $ref: getSchemaPath(ToolCallDto) }, { type: 'object', nullable: true, enum: [null] }],
    description: 'The evaluated call (tool name and arguments), so an operator sees what is asked and `remember` can teach it; null on mandate-path requests.',
  })
  tool_call!: ToolCallDto | null;
}

export class ApprovalListDto extends PageOf(ApprovalDto) {}

export class DenyApprovalDto {
  @ApiPropertyOptional({ maxLength: 1000 })
  @IsOptional()
  @IsString()
  @MaxLength(1000)
  reason?: string;

  @ApiPropertyOptional({
    default: false,
    description: 'Legacy-path requests only: store the call as a negative example of the candidate intention, so calls like it are never matched to it.',
  })
  @IsOptional()
  @IsBoolean()
  remember?: boolean;
}

/** Body of POST /v1/approvals/{id}/approve (optional; DESIGN 6.10, 6.15). */
export class ApproveApprovalDto {
  @ApiPropertyOptional({ maxLength: 1000 })
  @IsOptional()
  @IsString()
  @MaxLength(1000)
  reason?: string;

  @ApiPropertyOptional({
    default: false,
    description:
      'Legacy-path requests only: store the call as a positive example of the approved intention (of `intent_label` when given, then also a negative example of the candidate), so calls like it are certain from now on.',
  })
  @IsOptional()
  @IsBoolean()
  remember?: boolean;

  @ApiPropertyOptional({
    pattern: LABEL_PATTERN.source,
    description:
      "Legacy-path requests only: the intention the call really is (an active one of the org), correcting the classifier's candidate. The grant is for it.",
  })
  @IsOptional()
  @IsString()
  @Matches(LABEL_PATTERN, { message: 'intent_label must match ^[a-z0-9][a-z0-9_.-]{0,62}$' })
  intent_label?: string;
}

/** What a service asks the approvals service to queue (internal, not a public route). */
export class CreateApprovalRequestDto {
  @IsIn(APPROVAL_SOURCES) source!: ApprovalSource;
  @IsOptional() @IsString() @MaxLength(200) intent_label?: string;
  @IsOptional() @IsString() @MaxLength(200) intent_card_id?: string;
  @IsOptional() @IsString() @MaxLength(256) tool_name?: string;
  @IsOptional() @IsString() @MaxLength(256) operation?: string;
  @IsString() @IsNotEmpty() @MaxLength(2000) summary!: string;
  @IsOptional() @IsString() @MaxLength(256) user_id?: string;
  /** sha256 of the canonical call: the same call later consumes the approval once. */
  @IsString() @IsNotEmpty() @MaxLength(128) fingerprint!: string;
  /** Default 900 (15 min). */
  @IsOptional() @IsInt() @Min(10) @Max(7 * 24 * 3600) ttl_seconds?: number;
  /** Legacy path: why the call waits (absent = approval_required). */
  @IsOptional() @IsIn(APPROVAL_REASON_CODES) reason_code?: ApprovalReasonCode;
  /** Legacy path, `uncertain_match`: the candidates, best first. */
  @IsOptional() @IsArray() @ArrayMaxSize(10) @ValidateNested({ each: true }) @Type(() => ApprovalCandidateDto) candidates?: ApprovalCandidateDto[];
  /** Legacy path: the evaluated call, kept so an operator sees it and `remember` can teach it. */
  @IsOptional() @IsObject() @ValidateNested() @Type(() => ToolCallDto) tool_call?: ToolCallDto;
  @OptionalConversation() conversation_context?: ConversationMessageDto[];
}

export class ConsumeApprovalDto {
  @IsString() @IsNotEmpty() @MaxLength(128) fingerprint!: string;
}

/**
 * How other services reach approvals: in-process in embedded mode, over HTTP (internal routes,
 * internal token) in distributed mode. Both calls act for the caller's org only.
 */
export interface ApprovalsApi {
  /** Committed before it resolves: the request is listed by GET /v1/approvals at once. */
  create(caller: { orgId: string; keyId: string }, request: CreateApprovalRequestDto): Promise<ApprovalDto>;
  /** Atomically uses an approved, unexpired, unused approval for this fingerprint; null if none. */
  consume(caller: { orgId: string; keyId: string }, fingerprint: string): Promise<ApprovalDto | null>;
}

export const APPROVALS_API = Symbol('APPROVALS_API');
