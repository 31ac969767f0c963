import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsInt, IsNotEmpty, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';

import { APPROVAL_SOURCES, APPROVAL_STATUSES, type ApprovalSource, type ApprovalStatus } from '@igw/kernel';
import { PageOf } from './common.dto';

export { APPROVAL_SOURCES, APPROVAL_STATUSES, type ApprovalSource, type ApprovalStatus };

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
}

export class ApprovalListDto extends PageOf(ApprovalDto) {}

export class DenyApprovalDto {
  @ApiPropertyOptional({ maxLength: 1000 })
  @IsOptional()
  @IsString()
  @MaxLength(1000)
  reason?: string;
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
