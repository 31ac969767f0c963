import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsIn, IsNotEmpty, IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { LABEL_PATTERN, PageOf } from './common.dto';
import { OptionalFlag, OptionalIntRange, OptionalNestedList, ServerAssigned } from './dto-rules';

import { INTENT_CLASSES, INTENTION_STATUSES, type IntentClass, type IntentionStatus } from '@igw/kernel';

export { INTENT_CLASSES, INTENTION_STATUSES, type IntentClass, type IntentionStatus };

export class DataElementDto {
  @ApiProperty({ example: 'crm' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  data_source_id!: string;

  @ApiProperty({ example: 'customers.email' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(500)
  path!: string;
}

/** Bounds of an intention's `tools` bindings (DESIGN 6.15). */
export const TOOL_BINDING_LIMITS = { maxItems: 100, maxLength: 256 } as const;

/**
 * `tools`: patterns over the tool name as evaluated (`S.T` on the MCP proxy): `*` within one `.`
 * `/` `:` segment, `**` across segments (the scope-glob language). An intention with `tools`
 * covers exactly those tools (DESIGN 6.15).
 */
function OptionalToolBindings(): PropertyDecorator {
  return (target, key) => {
    for (const d of [
      MaxLength(TOOL_BINDING_LIMITS.maxLength, { each: true }),
      IsNotEmpty({ each: true }),
      IsString({ each: true }),
      ArrayMaxSize(TOOL_BINDING_LIMITS.maxItems),
      IsArray(),
      IsOptional(),
      ApiPropertyOptional({
        type: [String],
        default: [],
        maxItems: TOOL_BINDING_LIMITS.maxItems,
        example: ['hubspot.get_contact', 'hubspot.search_*'],
        description:
          'Tool-name patterns this intention covers exactly (`*` within a `.` `/` `:` segment, `**` across). A call whose tool matches is certain for this intention (layer `binding`); the classifier never matches this intention for any other tool.',
      }),
    ])
      d(target, key);
  };
}

/** Body of POST /v1/intentions and /v1/purposes (DESIGN 6.3). */
export class CreateIntentionDto {
  @ApiProperty({ pattern: LABEL_PATTERN.source, example: 'crm.customer_lookup' })
  @IsString()
  @Matches(LABEL_PATTERN, { message: 'label must match ^[a-z0-9][a-z0-9_.-]{0,62}$' })
  label!: string;

  @ApiPropertyOptional({ description: 'Defaults to the label.' })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  display_name?: string;

  @ApiPropertyOptional({ default: '' })
  @IsOptional()
  @IsString()
  @MaxLength(4000)
  description?: string;

  @ApiProperty({ enum: INTENT_CLASSES })
  @IsIn(INTENT_CLASSES, { message: `intent_class must be one of ${INTENT_CLASSES.join(', ')}` })
  intent_class!: IntentClass;

  @OptionalFlag()
  approval_required?: boolean;

  @OptionalIntRange(1, 1440, 15)
  ttl_minutes?: number;

  @OptionalNestedList(DataElementDto, 500)
  data_elements?: DataElementDto[];

  @OptionalToolBindings()
  tools?: string[];

  // Server-assigned fields may be echoed back by clients; they are accepted and ignored.
  @ServerAssigned() id?: unknown;
  @ServerAssigned() status?: unknown;
  @ServerAssigned() created_at?: unknown;
  @ServerAssigned() updated_at?: unknown;
  @ServerAssigned() version?: unknown;
}

/**
 * Body of PATCH /v1/intentions/{id}: the fields to change (at least one); the rest keep their
 * values. `label` is not changeable (it names the intention in grants and history).
 */
export class UpdateIntentionDto {
  @ApiPropertyOptional()
  @IsOptional()
  @IsString()
  @MaxLength(200)
  display_name?: string;

  @ApiPropertyOptional()
  @IsOptional()
  @IsString()
  @MaxLength(4000)
  description?: string;

  @ApiPropertyOptional({ enum: INTENT_CLASSES })
  @IsOptional()
  @IsIn(INTENT_CLASSES, { message: `intent_class must be one of ${INTENT_CLASSES.join(', ')}` })
  intent_class?: IntentClass;

  @OptionalFlag()
  approval_required?: boolean;

  @OptionalIntRange(1, 1440, 15)
  ttl_minutes?: number;

  @OptionalNestedList(DataElementDto, 500)
  data_elements?: DataElementDto[];

  @OptionalToolBindings()
  tools?: string[];

  @ServerAssigned() id?: unknown;
  @ServerAssigned() label?: unknown;
  @ServerAssigned() status?: unknown;
  @ServerAssigned() created_at?: unknown;
  @ServerAssigned() updated_at?: unknown;
  @ServerAssigned() version?: unknown;
}

export class IntentionDto {
  @ApiProperty() id!: string;
  @ApiProperty() label!: string;
  @ApiProperty() display_name!: string;
  @ApiProperty() description!: string;
  @ApiProperty({ enum: INTENT_CLASSES }) intent_class!: IntentClass;
  @ApiProperty({ enum: INTENTION_STATUSES }) status!: IntentionStatus;
  @ApiProperty() approval_required!: boolean;
  @ApiProperty() ttl_minutes!: number;
  @ApiProperty({ type: [DataElementDto] }) data_elements!: DataElementDto[];
  @ApiProperty({ type: [String], description: 'Tool-name patterns it covers exactly; empty: the classifier decides.' }) tools!: string[];
  @ApiProperty({ description: 'Increases on every change; policy_id is `<id>@<version>`.' }) version!: number;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ format: 'date-time' }) updated_at!: string;
}

export class IntentionListDto extends PageOf(IntentionDto, 'Opaque; pass as `cursor` for the next page. Null on the last page.') {}
