import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsBoolean, IsDefined, IsString, Matches, MaxLength, ValidateNested } from 'class-validator';
import { LABEL_PATTERN, PageOf } from './common.dto';
import { RequiredNested } from './dto-rules';
import { ConversationMessageDto, OptionalConversation, ToolCallDto } from './intent-evaluation.dto';

/** Bounds of an intention's examples (DESIGN 6.15). */
export const EXAMPLE_LIMITS = {
  /** Examples one intention may hold. */
  perIntention: 2000,
  /** Canonical JSON of `{tool_call, conversation_context}`, bytes. */
  bytes: 16 * 1024,
} as const;

export const EXAMPLE_SOURCES = ['manual', 'approval'] as const;
export type ExampleSource = (typeof EXAMPLE_SOURCES)[number];

/** Body of POST /v1/intentions/{id}/examples. */
export class CreateIntentionExampleDto {
  @RequiredNested(ToolCallDto, 'tool_call')
  tool_call!: ToolCallDto;

  @OptionalConversation()
  conversation_context?: ConversationMessageDto[];

  @ApiProperty({
    description: 'true: calls like this one are this intention (certain). false: calls like this one are never matched to this intention.',
  })
  @IsDefined({ message: 'covered is required' })
  @IsBoolean()
  covered!: boolean;
}

/** One example of an intention. */
export class IntentionExampleDto {
  @ApiProperty({ example: 'iex_0190…' }) id!: string;
  @ApiProperty() intention_id!: string;
  @ApiProperty({ type: ToolCallDto }) tool_call!: ToolCallDto;
  @ApiPropertyOptional({ type: [ConversationMessageDto] }) conversation_context?: ConversationMessageDto[];
  @ApiProperty() covered!: boolean;
  @ApiProperty({ enum: EXAMPLE_SOURCES, description: '`approval`: taught from the approval queue (`remember: true`).' }) source!: ExampleSource;
  @ApiPropertyOptional({ nullable: true, type: String, description: 'The approval it was taught from.' }) approval_id!: string | null;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
}

export class IntentionExampleListDto extends PageOf(IntentionExampleDto, 'Pass as `cursor` for the next page; null on the last page.') {}

/** One example `teach` stores: the call as a positive (covered) or negative example of an intention. */
export class TaughtExampleDto {
  @IsString() @Matches(LABEL_PATTERN) intention_label!: string;
  @IsBoolean() covered!: boolean;
}

/**
 * What the approvals service asks the registry to store when an operator decides with
 * `remember: true` (internal, not a public route): every example or none, idempotent on
 * `approval_id` (a retried decision stores nothing twice).
 */
export class TeachFromApprovalDto {
  @IsString() @MaxLength(128) approval_id!: string;
  @RequiredNested(ToolCallDto, 'tool_call') tool_call!: ToolCallDto;
  @OptionalConversation() conversation_context?: ConversationMessageDto[];
  @IsArray() @ArrayMinSize(1) @ArrayMaxSize(2) @ValidateNested({ each: true }) @Type(() => TaughtExampleDto) examples!: TaughtExampleDto[];
}

export class TaughtExamplesDto {
  @ApiProperty({ type: [IntentionExampleDto] }) examples!: IntentionExampleDto[];
}
