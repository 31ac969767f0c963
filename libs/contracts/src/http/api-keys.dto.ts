import { ApiProperty, ApiPropertyOptional, getSchemaPath } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, Max, Min, ValidateNested } from 'class-validator';
import { SCOPES, type Scope } from '@igw/kernel';
import { NonEmptyString } from './dto-rules';

export class CreateApiKeyDto {
  @NonEmptyString(200, { example: 'ci-bot' })
  name!: string;

  @ApiProperty({ enum: SCOPES })
  @IsIn(SCOPES, { message: `scope must be one of ${SCOPES.join(', ')}` })
  scope!: Scope;
}

export class ApiKeyDto {
  @ApiProperty() id!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ enum: SCOPES }) scope!: Scope;
  @ApiProperty({ description: 'First characters of the key, to recognise it.' }) prefix!: string;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ format: 'date-time', nullable: true, type: String, description: 'When it was revoked; null while it is valid.' }) revoked_at!: string | null;
}

export class CreatedApiKeyDto extends ApiKeyDto {
  @ApiProperty({ description: 'The secret. Shown once, never again.' }) key!: string;
}

export class ApiKeyListDto {
  @ApiProperty({ type: [ApiKeyDto] }) data!: ApiKeyDto[];
}

export class RateLimitDto {
  @ApiProperty({ type: 'integer', minimum: 1, maximum: 100000, description: 'Sustained requests per second, per API key.' })
  @IsInt()
  @Min(1)
  @Max(100000)
  requests_per_second!: number;

  @ApiProperty({
    type: 'integer',
    minimum: 1,
    maximum: 200000,
    description:
      'The most requests a key may make in one second: the `burst − requests_per_second` above the sustained rate come from a pool that refills every 10 s. At least requests_per_second.',
  })
  @IsInt()
  @Min(1)
  @Max(200000)
  burst!: number;
}

export class CreateOrgDto {
  @NonEmptyString(200, { example: 'acme' })
  name!: string;

  @ApiPropertyOptional({ type: RateLimitDto })
  @IsOptional()
  @ValidateNested()
  @Type(() => RateLimitDto)
  rate_limit?: RateLimitDto;
}

export class UpdateOrgDto {
  // OpenAPI 3.0 has no nullable $ref: a null is the second alternative (so the document accepts the null the API takes).
  @ApiPropertyOptional({
    oneOf: [{ $ref: getSchemaPath(RateLimitDto) }, { type: 'object', nullable: true, enum: [null] }],
    description: 'The per-key rate limit to set; null restores the deployment default.',
  })
  @IsOptional()
  @ValidateNested()
  @Type(() => RateLimitDto)
  rate_limit?: RateLimitDto | null;
}

export class OrgDto {
  @ApiProperty() id!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ type: RateLimitDto }) rate_limit!: RateLimitDto;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
}

export class CreatedOrgDto {
  @ApiProperty({ type: OrgDto }) org!: OrgDto;
  @ApiProperty({ type: CreatedApiKeyDto, description: 'An admin key of the new org, shown once.' }) api_key!: CreatedApiKeyDto;
}

export class HealthDto {
  @ApiProperty({ enum: ['ok', 'degraded'] }) status!: 'ok' | 'degraded';
  @ApiProperty() version!: string;
  @ApiProperty({ enum: ['embedded', 'distributed'] }) mode!: string;
  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'string', enum: ['ok', 'down', 'warn'] },
    example: { database: 'ok', events: 'ok', cache: 'ok', read_models: 'ok', records: 'warn' },
    description: 'Each dependency by name: `ok`, `down` (503) or `warn`.',
  })
  checks!: Record<string, 'ok' | 'down' | 'warn'>;
  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { type: 'object', additionalProperties: true },
    example: { records: { set_aside: 1, set_aside_by_schema: { decision_proxy: 1 }, oldest_unpublished_event_s: 0 } },
    description: 'The numbers behind a check, by check name (the records check always gives them).',
  })
  details?: Record<string, Record<string, unknown>>;
}
