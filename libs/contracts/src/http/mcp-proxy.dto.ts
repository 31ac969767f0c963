import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsDefined, IsNotEmpty, IsObject, IsOptional, IsString, MaxLength, ValidateNested } from 'class-validator';
import { DECISION_KINDS, type DecisionKind } from './intent-cards.dto';

/** The action an agent wants to take (spec: mcp-proxy request `action`). */
export class ProxyActionDto {
  @ApiProperty({ example: 'sdk', description: 'Where the call comes from (sdk, mcp, …).' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(64)
  surface!: string;

  @ApiProperty({ example: 'crm.contacts.read' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(256)
  operation!: string;

  @ApiPropertyOptional({ type: 'object', additionalProperties: true })
  @IsOptional()
  @IsObject({ message: 'arguments must be an object' })
  arguments?: Record<string, unknown>;

  @ApiPropertyOptional({ example: 'crm://contacts/42' })
  @IsOptional()
  @IsString()
  @MaxLength(512)
  target_resource?: string;
}

/** Body of POST /v1/mcp-proxy/call (with `X-Service-Mandate`). */
export class McpProxyCallDto {
  @ApiProperty({ type: ProxyActionDto })
  @IsDefined({ message: 'action is required' })
  @IsObject({ message: 'action must be an object' })
  @ValidateNested()
  @Type(() => ProxyActionDto)
  action!: ProxyActionDto;

  @ApiPropertyOptional({ type: 'object', additionalProperties: true, description: 'Free-form; `actor`, `on_behalf_of`, `prompt_id` are checked against the mandate.' })
  @IsOptional()
  @IsObject({ message: 'context must be an object' })
  context?: Record<string, unknown>;

  @ApiProperty({ example: 'crm-api', description: "Must equal the mandate's `aud`." })
  @IsString()
  @IsNotEmpty()
  @MaxLength(256)
  audience!: string;
}

/** A decision (spec: `decision` with `kind` plus kind-specific fields, DESIGN 6.9). */
export class DecisionDto {
  @ApiProperty({ enum: DECISION_KINDS }) kind!: DecisionKind;
  @ApiProperty() decision_id!: string;
  @ApiPropertyOptional({ description: 'The card rule that decided, when one did.' }) rule_id?: string;
  [field: string]: unknown;
}

export class McpProxyMandateRefDto {
  @ApiProperty() cred_id!: string;
  @ApiProperty() prompt_id!: string;
  @ApiProperty() intent_id!: string;
}

export class McpProxyCallResponseDto {
  @ApiProperty({ type: DecisionDto }) decision!: DecisionDto;
  @ApiProperty({ type: McpProxyMandateRefDto }) mandate!: McpProxyMandateRefDto;
}
