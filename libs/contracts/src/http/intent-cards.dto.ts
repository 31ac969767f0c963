import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsIn, IsNotEmpty, IsObject, IsOptional, IsString, Matches, MaxLength, ValidateNested } from 'class-validator';
import { DECISION_KINDS, type DecisionKind } from '@igw/kernel';
import { LABEL_PATTERN, PageOf } from './common.dto';
import { NonEmptyString, OptionalFlag, OptionalIntRange, OptionalNestedList, ServerAssigned, StringList } from './dto-rules';

export { DECISION_KINDS, type DecisionKind };

export class ScopeDto {
  @StringList({ type: [String], example: ['crm.read', 'crm.search*'], description: 'Glob patterns.' }, { maxItems: 200, maxLength: 256 })
  operations!: string[];

  @StringList({ type: [String], example: ['crm://customers/*'] }, { maxItems: 200, maxLength: 512 })
  resources!: string[];

  @ApiPropertyOptional({ type: [String], example: ['crm.delete*'], default: [] })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(200)
  @IsString({ each: true })
  @IsNotEmpty({ each: true })
  @MaxLength(256, { each: true })
  forbidden_operations?: string[];
}

/**
 * What a rule decides. `kind` is one of the twelve; the kind-specific fields (DESIGN 6.9) are
 * checked per kind when the card is installed.
 */
export class RuleDecisionDto {
  @ApiProperty({ enum: DECISION_KINDS })
  @IsIn(DECISION_KINDS, { message: `kind must be one of ${DECISION_KINDS.join(', ')}` })
  kind!: DecisionKind;

  @ApiPropertyOptional() @IsOptional() @IsString() @MaxLength(200) reason?: string;
  @ApiPropertyOptional() @IsOptional() @IsString() @MaxLength(2000) message?: string;
  @ApiPropertyOptional({ type: [String] }) @IsOptional() @IsArray() @IsString({ each: true }) redact_fields?: string[];
  @ApiPropertyOptional({ type: Object }) @IsOptional() @IsObject() log_fields?: Record<string, unknown>;
  @ApiPropertyOptional({ type: Object }) @IsOptional() @IsObject() downgraded_action?: Record<string, unknown>;
  @ApiPropertyOptional({ type: Object }) @IsOptional() @IsObject() replacement_action?: Record<string, unknown>;
  @ApiPropertyOptional({ type: Object }) @IsOptional() @IsObject() suggested_action?: Record<string, unknown>;
  @ApiPropertyOptional({ type: Object }) @IsOptional() @IsObject() shadow_decision?: Record<string, unknown>;
  @ApiPropertyOptional() @IsOptional() @IsString() @MaxLength(128) reroute_card_id?: string;
  @ApiPropertyOptional() @IsOptional() @IsString() @MaxLength(128) required_acr?: string;
}

export class CardRuleDto {
  @ApiProperty({ example: 'block-bulk-export' })
  @IsString()
  @Matches(LABEL_PATTERN, { message: 'id must match ^[a-z0-9][a-z0-9_.-]{0,62}$' })
  id!: string;

  @NonEmptyString(4000, { example: 'action.operation == "crm.export" && size(action.arguments) > 2', description: 'CEL over action, context, mandate.' })
  when!: string;

  @ApiProperty({ type: RuleDecisionDto })
  @IsObject()
  @ValidateNested()
  @Type(() => RuleDecisionDto)
  decision!: RuleDecisionDto;
}

/** Body of POST /v1/intent-cards (DESIGN 6.7). Re-installing an existing `id` replaces the card. */
export class InstallIntentCardDto {
  @ApiPropertyOptional({ pattern: LABEL_PATTERN.source, description: 'Chosen by the operator; generated when absent.' })
  @IsOptional()
  @IsString()
  @Matches(LABEL_PATTERN, { message: 'id must match ^[a-z0-9][a-z0-9_.-]{0,62}$' })
  id?: string;

  @NonEmptyString(200, { example: 'CRM read-only assistant' })
  name!: string;

  @ApiPropertyOptional({ default: '' })
  @IsOptional()
  @IsString()
  @MaxLength(4000)
  description?: string;

  @ApiProperty({ type: ScopeDto })
  @IsObject()
  @ValidateNested()
  @Type(() => ScopeDto)
  allowed_scope!: ScopeDto;

  @StringList({ type: [String], example: ['crm-api'] }, { minItems: 1, maxItems: 50, maxLength: 256 })
  audiences!: string[];

  @OptionalIntRange(1, 3600, 3600)
  max_ttl_seconds?: number;

  @OptionalFlag()
  shadow?: boolean;

  @OptionalNestedList(CardRuleDto, 200)
  rules?: CardRuleDto[];

  @ServerAssigned() created_at?: unknown;
  @ServerAssigned() updated_at?: unknown;
  @ServerAssigned() version?: unknown;
}

export interface CardRule {
  id: string;
  when: string;
  decision: { kind: DecisionKind } & Record<string, unknown>;
}

export class IntentCardDto {
  @ApiProperty() id!: string;
  @ApiProperty() name!: string;
  @ApiProperty() description!: string;
  @ApiProperty({ type: ScopeDto }) allowed_scope!: { operations: string[]; resources: string[]; forbidden_operations: string[] };
  @ApiProperty({ type: [String] }) audiences!: string[];
  @ApiProperty({ type: 'integer', description: 'The longest a mandate for this card may live.' }) max_ttl_seconds!: number;
  @ApiProperty() shadow!: boolean;
  @ApiProperty({ type: [CardRuleDto] }) rules!: CardRule[];
  @ApiProperty({
    type: 'integer',
    description:
      '1 when installed, + 1 on every replacement; an id installed again after its removal goes on from the removal, so a version never names two contents.',
  })
  version!: number;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ format: 'date-time' }) updated_at!: string;
}

export class IntentCardListDto extends PageOf(IntentCardDto) {}
