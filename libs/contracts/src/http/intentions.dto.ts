import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  Allow,
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsNotEmpty,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';
import { LABEL_PATTERN } from './common.dto';

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

  @ApiPropertyOptional({ default: false })
  @IsOptional()
  @IsBoolean()
  approval_required?: boolean;

  @ApiPropertyOptional({ default: 15, minimum: 1, maximum: 1440 })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(1440)
  ttl_minutes?: number;

  @ApiPropertyOptional({ type: [DataElementDto], default: [] })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(500)
  @ValidateNested({ each: true })
  @Type(() => DataElementDto)
  data_elements?: DataElementDto[];

  // Server-assigned fields may be echoed back by clients; they are accepted and ignored.
  @ApiPropertyOptional({ readOnly: true }) @Allow() id?: unknown;
  @ApiPropertyOptional({ readOnly: true }) @Allow() status?: unknown;
  @ApiPropertyOptional({ readOnly: true }) @Allow() created_at?: unknown;
  @ApiPropertyOptional({ readOnly: true }) @Allow() updated_at?: unknown;
  @ApiPropertyOptional({ readOnly: true }) @Allow() version?: unknown;
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

export class IntentionListDto {
  @ApiProperty({ type: [IntentionDto] }) data!: IntentionDto[];
  @ApiProperty({ nullable: true, type: String, description: 'Opaque; pass as `cursor` for the next page. Null on the last page.' })
  next_cursor!: string | null;
}
