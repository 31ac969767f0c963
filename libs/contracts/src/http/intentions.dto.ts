import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsNotEmpty, IsOptional, IsString, Matches, MaxLength } from 'class-validator';
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

  // Server-assigned fields may be echoed back by clients; they are accepted and ignored.
  @ServerAssigned() id?: unknown;
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
  @ApiProperty({ description: 'Increases on every change; policy_id is `<id>@<version>`.' }) version!: number;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ format: 'date-time' }) updated_at!: string;
}

export class IntentionListDto extends PageOf(IntentionDto, 'Opaque; pass as `cursor` for the next page. Null on the last page.') {}
