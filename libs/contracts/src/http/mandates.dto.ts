import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsIn,
  IsInt,
  IsNotEmpty,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';
import { ErrorDto } from './common.dto';

import { BROKER_KINDS, MANDATE_STATUSES, type BrokerKind, type MandateStatus } from '@igw/kernel';

export { BROKER_KINDS, MANDATE_STATUSES, type BrokerKind, type MandateStatus };

/** A mandate's scope as issued: card `forbidden_operations` always kept. */
export class MandateScopeDto {
  @ApiProperty({ type: [String] }) operations!: string[];
  @ApiProperty({ type: [String] }) resources!: string[];
  @ApiProperty({ type: [String] }) forbidden_operations!: string[];
}

/**
 * The scope a dispense asks for (DESIGN 6.8): only `operations` is required (at least one
 * pattern); `resources` and `forbidden_operations` default to `[]` (a mandate with no resources
 * can touch none).
 */
export class RequestedScopeDto {
  @ApiProperty({ type: [String], minItems: 1, maxItems: 200, example: ['crm.contacts.read'], description: 'Glob patterns; at least one.' })
  @IsArray({ message: 'operations must be a list of patterns' })
  @ArrayMinSize(1, { message: 'operations must name at least one pattern' })
  @ArrayMaxSize(200)
  @IsString({ each: true })
  @IsNotEmpty({ each: true })
  @MaxLength(256, { each: true })
  operations!: string[];

  @ApiPropertyOptional({
    type: [String],
    maxItems: 200,
    default: [],
    example: ['crm://contacts/*'],
    description: 'Glob patterns; none: the mandate can touch no resource.',
  })
  @IsOptional()
  @IsArray({ message: 'resources must be a list of patterns' })
  @ArrayMaxSize(200)
  @IsString({ each: true })
  @IsNotEmpty({ each: true })
  @MaxLength(512, { each: true })
  resources?: string[];

  @ApiPropertyOptional({ type: [String], maxItems: 200, default: [], example: ['crm.contacts.delete'], description: "Kept besides the card's own." })
  @IsOptional()
  @IsArray({ message: 'forbidden_operations must be a list of patterns' })
  @ArrayMaxSize(200)
  @IsString({ each: true })
  @IsNotEmpty({ each: true })
  @MaxLength(256, { each: true })
  forbidden_operations?: string[];
}

export class BrokerDispenseRequestDto {
  @ApiProperty({ enum: BROKER_KINDS })
  @IsIn(BROKER_KINDS, { message: `kind must be one of ${BROKER_KINDS.join(', ')}` })
  kind!: BrokerKind;

  @ApiPropertyOptional({ description: 'vault: the role of the JWT auth method to log in with (default: the mount default_role).' })
  @IsOptional()
  @IsString()
  @Matches(/^[A-Za-z0-9_.@-]{1,128}$/, { message: 'vault_role must be 1-128 characters of letters, digits, _ . @ -' })
  vault_role?: string;
}

/** Body of POST /v1/mandate/dispense (spec: dispense request). */
export class DispenseMandateDto {
  @ApiProperty({ example: 'agent:support-bot', description: 'Who the mandate is bound to (its `sub`).' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(256)
  actor!: string;

  @ApiProperty({ example: 'crm-assistant', description: 'An intent card installed for the caller org.' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(128)
  intent_id!: string;

  @ApiPropertyOptional({
    example: 'prm_42',
    maxLength: 256,
    description: 'The prompt the mandate is bound to; without it the mandate is bound to no prompt (no prompt check at the proxy).',
  })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(256)
  prompt_id?: string;

  @ApiProperty({ type: RequestedScopeDto })
  @IsObject({ message: 'requested_scope must be an object' })
  @ValidateNested()
  @Type(() => RequestedScopeDto)
  requested_scope!: RequestedScopeDto;

  @ApiPropertyOptional({ default: 300, minimum: 1, description: 'Clamped to min(3600, card max_ttl_seconds).' })
  @IsOptional()
  @IsInt({ message: 'ttl_seconds must be a positive integer' })
  @Min(1, { message: 'ttl_seconds must be a positive integer' })
  @Max(1_000_000_000, { message: 'ttl_seconds is too large' })
  ttl_seconds?: number;

  @ApiProperty({ example: 'crm-api' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(256)
  audience!: string;

  @ApiPropertyOptional({ type: 'object', additionalProperties: true, description: 'Free-form; `acr` here becomes the mandate acr claim.' })
  @IsOptional()
  @IsObject({ message: 'context must be an object' })
  context?: Record<string, unknown>;

  @ApiPropertyOptional({ type: BrokerDispenseRequestDto })
  @IsOptional()
  @IsObject({ message: 'broker_dispense must be an object' })
  @ValidateNested()
  @Type(() => BrokerDispenseRequestDto)
  broker_dispense?: BrokerDispenseRequestDto;

  @ApiPropertyOptional({ type: 'object', additionalProperties: true, description: 'Kept with the mandate record (the reasoning trail).' })
  @IsOptional()
  @IsObject({ message: 'classification_evidence must be an object' })
  classification_evidence?: Record<string, unknown>;
}

export class BrokerDispenseResultDto {
  @ApiProperty({ enum: BROKER_KINDS }) kind!: BrokerKind;
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description: 'vault: {kind: minted, vault_token, lease_duration}; conjur: {kind: minted, conjur_token, expires_at}',
  })
  result!: Record<string, unknown>;
}

export class DispensedMandateDto {
  @ApiProperty({ description: 'The signed mandate (RS256 JWT, typ mandate+jwt).' }) credential!: string;
  @ApiProperty() cred_id!: string;
  @ApiProperty({ format: 'date-time' }) expires_at!: string;
  @ApiProperty({ type: 'integer', description: 'Effective TTL after clamping.' }) ttl_seconds!: number;
  @ApiPropertyOptional({ type: BrokerDispenseResultDto }) broker_dispense?: BrokerDispenseResultDto;
}

/** Answer of POST /v1/mandate/refresh: the new credential, and how many times the mandate has been refreshed. */
export class RefreshedMandateDto extends DispensedMandateDto {
  @ApiProperty({ type: 'integer', minimum: 1, description: 'Refreshes of this mandate so far, this one included.' }) refresh_count!: number;
}

/**
 * A 403 about a mandate's scope: `mandate_violation` on dispense (the request goes beyond the
 * intent card), `scope_outside_intent` on refresh (the card no longer allows the mandate).
 */
export class MandateViolationErrorDto extends ErrorDto {
  @ApiPropertyOptional({
    type: MandateScopeDto,
    description:
      'The largest part of the requested scope the card allows (lists may be empty). Always given with `mandate_violation`; with `scope_outside_intent` when the scope, not the audience, left the card.',
  })
  suggested_scope?: MandateScopeDto;
}

export class RefreshMandateDto {
  @ApiProperty() @IsString() @IsNotEmpty() @MaxLength(128) cred_id!: string;
  @ApiPropertyOptional({ minimum: 1 })
  @IsOptional()
  @IsInt({ message: 'ttl_seconds must be a positive integer' })
  @Min(1, { message: 'ttl_seconds must be a positive integer' })
  @Max(1_000_000_000, { message: 'ttl_seconds is too large' })
  ttl_seconds?: number;
}

export class RevokeMandateDto {
  @ApiProperty() @IsString() @IsNotEmpty() @MaxLength(128) cred_id!: string;
  @ApiPropertyOptional({ maxLength: 1000 }) @IsOptional() @IsString() @MaxLength(1000) reason?: string;
}

export class BrokerRevocationDto {
  @ApiProperty({ enum: BROKER_KINDS }) kind!: BrokerKind;
  @ApiProperty({
    enum: ['revoked', 'already_invalid', 'not_revocable', 'failed'],
    description:
      '`revoked`: the broker confirmed; `already_invalid`: the broker no longer knows the credential; `not_revocable`: it cannot be revoked and expires on its own; `failed`: the broker could not be reached, call revoke again.',
  })
  result!: string;
}

export class RevokedMandateDto {
  @ApiProperty() cred_id!: string;
  @ApiProperty({ enum: ['revoked'] }) status!: 'revoked';
  @ApiProperty({ format: 'date-time' }) revoked_at!: string;
  @ApiPropertyOptional({ type: BrokerRevocationDto, description: 'The broker revocation, when the mandate had a broker credential.' })
  broker_revocation?: BrokerRevocationDto;
}

/** GET /v1/mandate/{cred_id}: everything about a mandate except the credential itself. */
export class MandateViewDto {
  @ApiProperty() cred_id!: string;
  @ApiProperty() actor!: string;
  @ApiProperty() intent_id!: string;
  @ApiProperty({ nullable: true, type: String, description: 'null: the mandate is bound to no prompt.' }) prompt_id!: string | null;
  @ApiProperty() audience!: string;
  @ApiProperty({ type: MandateScopeDto }) scope!: MandateScopeDto;
  @ApiProperty({ enum: MANDATE_STATUSES }) status!: MandateStatus;
  @ApiProperty({ format: 'date-time' }) issued_at!: string;
  @ApiProperty({ format: 'date-time' }) expires_at!: string;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) revoked_at!: string | null;
  @ApiProperty({ type: 'integer' }) refresh_count!: number;
  @ApiProperty({ nullable: true, type: 'object', additionalProperties: true, description: 'Broker kind and non-secret details; null when none.' })
  broker!: Record<string, unknown> | null;
  @ApiProperty({ nullable: true, type: 'object', additionalProperties: true }) classification_evidence!: Record<string, unknown> | null;
}

export class JwkDto {
  @ApiProperty({ enum: ['RSA'] }) kty!: 'RSA';
  @ApiProperty() kid!: string;
  @ApiProperty({ enum: ['RS256'] }) alg!: 'RS256';
  @ApiProperty({ enum: ['sig'] }) use!: 'sig';
  @ApiProperty() n!: string;
  @ApiProperty() e!: string;
}

export class JwksDto {
  @ApiProperty({ type: [JwkDto] }) keys!: JwkDto[];
}
