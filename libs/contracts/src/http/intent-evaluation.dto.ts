import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsBoolean, IsNotEmpty, IsObject, IsOptional, IsString, MaxLength, ValidateNested } from 'class-validator';
import { GRANT_INVALID_REASONS } from '@igw/kernel';
import { EVALUATION_OUTCOMES, type EvaluationOutcome } from '../events/payloads';
import { INTENT_CLASSES, type IntentClass } from './intentions.dto';
import { RequiredNested } from './dto-rules';
import { PageOf } from './common.dto';

/** Bounds of an evaluate request: generous for real agents, small enough to keep a call cheap. */
export const EVALUATE_LIMITS = {
  toolName: 256,
  id: 256,
  contextMessages: 50,
  role: 32,
  content: 16_000,
} as const;

export class ToolCallDto {
  @ApiProperty({ example: 'hubspot.get_contact', maxLength: EVALUATE_LIMITS.toolName })
  @IsString()
  @IsNotEmpty()
  @MaxLength(EVALUATE_LIMITS.toolName)
  name!: string;

  @ApiPropertyOptional({ type: 'object', additionalProperties: true, example: { email: 'ada@example.com', fields: ['email', 'phone'] } })
  @IsOptional()
  @IsObject({ message: 'arguments must be an object' })
  arguments?: Record<string, unknown>;
}

export class ConversationMessageDto {
  @ApiProperty({ example: 'user', maxLength: EVALUATE_LIMITS.role })
  @IsString()
  @MaxLength(EVALUATE_LIMITS.role)
  role!: string;

  @ApiProperty({ example: 'What is the phone number of our contact Ada?', maxLength: EVALUATE_LIMITS.content })
  @IsString()
  @MaxLength(EVALUATE_LIMITS.content)
  content!: string;
}

/** An optional list of recent chat messages, at most EVALUATE_LIMITS.contextMessages (evaluate, examples, approvals). */
export function OptionalConversation(): PropertyDecorator {
  return (target, key) => {
    for (const d of [
      Type(() => ConversationMessageDto),
      ValidateNested({ each: true }),
      ArrayMaxSize(EVALUATE_LIMITS.contextMessages),
      IsArray(),
      IsOptional(),
      ApiPropertyOptional({ type: [ConversationMessageDto], maxItems: EVALUATE_LIMITS.contextMessages }),
    ])
      d(target, key);
  };
}

/** Body of POST /v1/intent/evaluate (spec: evaluation request). */
export class EvaluateIntentRequestDto {
  @RequiredNested(ToolCallDto, 'tool_call')
  tool_call!: ToolCallDto;

  @ApiPropertyOptional({ maxLength: EVALUATE_LIMITS.id }) @IsOptional() @IsString() @MaxLength(EVALUATE_LIMITS.id) user_id?: string;
  @ApiPropertyOptional({ maxLength: EVALUATE_LIMITS.id }) @IsOptional() @IsString() @MaxLength(EVALUATE_LIMITS.id) session_id?: string;
  @ApiPropertyOptional({ maxLength: EVALUATE_LIMITS.id }) @IsOptional() @IsString() @MaxLength(EVALUATE_LIMITS.id) conversation_id?: string;

  @OptionalConversation()
  conversation_context?: ConversationMessageDto[];

  @ApiPropertyOptional({ maxLength: EVALUATE_LIMITS.id }) @IsOptional() @IsString() @MaxLength(EVALUATE_LIMITS.id) data_source_id?: string;

  @ApiPropertyOptional({ default: false }) @IsOptional() @IsBoolean() shadow_mode?: boolean;
}

/** A consulted classification layer that gave no usable answer (the cascade fell back to the previous one). */
export class ClassificationLayerErrorDto {
  @ApiProperty({ enum: ['embedding', 'llm'] }) layer!: 'embedding' | 'llm';
  @ApiProperty({
    enum: ['timeout', 'http_error', 'network_error', 'malformed_response', 'invalid_answer', 'error'],
    description: '`invalid_answer`: the llm answered no offered label, or not the required JSON.',
  })
  reason!: string;
  @ApiPropertyOptional({ type: 'integer', description: 'HTTP status of the endpoint, with `http_error`.' }) status?: number;
}

/** Spec: classification evidence. `supporting_evidence` items are opaque to clients. */
export class ClassificationEvidenceDto {
  @ApiProperty({
    enum: ['binding', 'example', 'lexical', 'embedding', 'llm'],
    description: "The layer whose decision stands: an intention's `tools` binding, an example, or a ranking layer.",
  })
  classification_method!: string;
  @ApiProperty({
    type: 'array',
    items: { type: 'string', enum: ['binding', 'example', 'lexical', 'embedding', 'llm'] },
    example: ['lexical'],
    description: 'Every layer that ran, in order.',
  })
  evaluation_layers_consulted!: string[];
  @ApiProperty({ minimum: 0, maximum: 1 }) confidence!: number;
  @ApiProperty({
    description:
      "Whether the match is certain: a binding, an example, or a confidence at the deployment's bar. Only a certain match is allowed without a human; an uncertain one is `pending_approval` with reason `uncertain_match`.",
  })
  certain!: boolean;
  @ApiPropertyOptional({ description: 'With `binding`: the pattern that matched (an intention label for a name binding).' }) matched_binding?: string;
  @ApiPropertyOptional({ type: [String], description: 'With `example`: the examples the call is like.' }) matched_examples?: string[];
  @ApiProperty({ type: 'array', items: { type: 'object', additionalProperties: true }, description: 'The top candidates of the last layer that ranked them.' })
  supporting_evidence!: unknown[];
  @ApiPropertyOptional({ type: [ClassificationLayerErrorDto], description: 'Consulted layers that gave no usable answer; absent when none failed.' })
  layer_errors?: ClassificationLayerErrorDto[];
  @ApiPropertyOptional({ description: "The llm's one-line reason (model output, truncated); only when the llm decided." }) llm_reason?: string;
  @ApiProperty({ enum: [1] }) schema_version!: number;
}

/** Answer of POST /v1/intent/evaluate (spec: evaluation response). */
export class EvaluateIntentResponseDto {
  @ApiProperty({ enum: EVALUATION_OUTCOMES }) outcome!: EvaluationOutcome;
  @ApiProperty({ example: 'crm.contact_lookup' }) intent_label!: string;
  @ApiProperty() intent_event_id!: string;
  @ApiProperty({ enum: INTENT_CLASSES }) intent_class!: IntentClass;
  @ApiProperty({ minimum: 0, maximum: 1 }) confidence!: number;
  @ApiProperty({ type: [String], example: ['hubspot:contacts.email'] }) data_elements!: string[];
  @ApiProperty() shadow_mode!: boolean;
  @ApiProperty({ type: 'integer' }) processing_time_ms!: number;
  @ApiProperty({ nullable: true, type: String }) approval_request_id!: string | null;
  @ApiPropertyOptional({ description: 'Present when the call is allowed or approved.' }) grant?: string;
  @ApiProperty({ example: 'int_0190…@3', description: '`<intention id>@<version>`, or `ambient`.' }) policy_id!: string;
  @ApiProperty({ type: ClassificationEvidenceDto }) classification_evidence!: ClassificationEvidenceDto;
  @ApiProperty({
    // null listed too: in OpenAPI 3.0 an enum restricts a nullable value as well.
    enum: ['ambient', 'data_element_refused', 'approval_required', 'uncertain_match', null] as unknown as string[],
    nullable: true,
    type: String,
    description:
      'Why policy does not simply allow the call (also under shadow mode); null when it does. `uncertain_match`: the classifier is not certain which intention covers the call, so a human decides (`approval_request_id`).',
  })
  reason!: 'ambient' | 'data_element_refused' | 'approval_required' | 'uncertain_match' | null;
  @ApiPropertyOptional({ type: [String], description: 'With `data_element_refused`: the named fields outside the intention.' }) refused_fields?: string[];
}

/** The call an evaluation decided, as it was sent (DESIGN 6.16): the body of an example as it stands. */
export class EvaluatedCallDto {
  @ApiProperty({ type: ToolCallDto }) tool_call!: ToolCallDto;
  @ApiPropertyOptional({ type: [ConversationMessageDto] }) conversation_context?: ConversationMessageDto[];
}

/** One recorded evaluation in GET /v1/intent/history (DESIGN 6.6). */
export class IntentEventDto {
  @ApiProperty() id!: string;
  @ApiProperty({ enum: EVALUATION_OUTCOMES }) outcome!: EvaluationOutcome;
  @ApiProperty() intent_label!: string;
  @ApiProperty({ enum: INTENT_CLASSES }) intent_class!: IntentClass;
  @ApiProperty() confidence!: number;
  @ApiProperty() tool_name!: string;
  @ApiProperty({ nullable: true, type: String }) user_id!: string | null;
  @ApiProperty({ nullable: true, type: String }) session_id!: string | null;
  @ApiProperty({ nullable: true, type: String }) conversation_id!: string | null;
  @ApiProperty() shadow_mode!: boolean;
  @ApiProperty() policy_id!: string;
  @ApiProperty({ nullable: true, type: String }) approval_request_id!: string | null;
  @ApiProperty({ type: [String] }) data_elements!: string[];
  @ApiProperty({ type: 'integer' }) processing_time_ms!: number;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiPropertyOptional({
    type: EvaluatedCallDto,
    nullable: true,
    description:
      'Only with `include=call`: the call as it was evaluated, while it is kept (`CALL_RETENTION_DAYS`); null once purged, when retention is off, or when the call was over the size cap.',
  })
  call?: EvaluatedCallDto | null;
}

export class IntentHistoryDto extends PageOf(IntentEventDto, 'Pass as `cursor` for the next page; null on the last page.') {}

/** Body of POST /v1/grants/verify. */
export class VerifyGrantRequestDto {
  @ApiProperty({ description: 'The `grant` of an evaluate response.' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(65_536)
  token!: string;

  @ApiPropertyOptional({
    type: ToolCallDto,
    description:
      'The call the grant is presented for. Given, the grant must have been issued for this very call (same tool name, same canonical arguments; ' +
      'absent arguments and `{}` are the same), else `{valid: false, reason: "other_call"}`. Left out, the binding is not checked.',
  })
  @IsOptional()
  @IsObject({ message: 'tool_call must be an object' })
  @ValidateNested()
  @Type(() => ToolCallDto)
  tool_call?: ToolCallDto;
}

/** `other_call`: valid, but issued for another call than the `tool_call` given (DESIGN 6.5). */
export { GRANT_INVALID_REASONS };

export class VerifiedGrantDto {
  @ApiProperty({ type: [String] }) data_elements!: string[];
  @ApiProperty() intent_label!: string;
  @ApiProperty() intent_event_id!: string;
  @ApiProperty({ nullable: true, type: String }) user_id!: string | null;
  @ApiProperty({ format: 'date-time' }) expires_at!: string;
}

export class VerifyGrantResponseDto {
  @ApiProperty() valid!: boolean;
  @ApiPropertyOptional({ type: VerifiedGrantDto }) grant?: VerifiedGrantDto;
  @ApiPropertyOptional({ enum: GRANT_INVALID_REASONS }) reason?: (typeof GRANT_INVALID_REASONS)[number];
}
