import { IsInt, IsOptional, IsString, Matches, Max, Min, MinLength, ValidateIf } from 'class-validator';
import { BaseConfig } from '@igw/config';

/** Settings of the edge (in the api-gateway app and in the embedded process). */
export class GatewayConfig extends BaseConfig {
  /** Lets its holder create orgs (POST /v1/orgs). Unset: org creation is off. */
  @IsOptional()
  @IsString()
  @MinLength(32, { message: 'PLATFORM_ADMIN_KEY must be at least 32 characters' })
  PLATFORM_ADMIN_KEY?: string;

  /** Admin key of org `default` on first start (embedded generates one when unset). */
  @IsOptional()
  @IsString()
  @MinLength(32, { message: 'BOOTSTRAP_ADMIN_KEY must be at least 32 characters' })
  BOOTSTRAP_ADMIN_KEY?: string;

  @IsInt({ message: 'RATE_LIMIT_RPS must be an integer between 1 and 100000' })
  @Min(1, { message: 'RATE_LIMIT_RPS must be an integer between 1 and 100000' })
  @Max(100000, { message: 'RATE_LIMIT_RPS must be an integer between 1 and 100000' })
  RATE_LIMIT_RPS: number = 100;

  @IsInt({ message: 'RATE_LIMIT_BURST must be an integer between 1 and 200000' })
  @Min(1, { message: 'RATE_LIMIT_BURST must be an integer between 1 and 200000' })
  @Max(200000, { message: 'RATE_LIMIT_BURST must be an integer between 1 and 200000' })
  RATE_LIMIT_BURST: number = 200;

  @ValidateIf((c: GatewayConfig) => c.GATEWAY_MODE === 'distributed')
  @Matches(/^https?:\/\/[^/\s]+$/, { message: 'POLICY_REGISTRY_URL must be an http(s)://host:port URL without a path (required in distributed mode)' })
  POLICY_REGISTRY_URL?: string;

  @ValidateIf((c: GatewayConfig) => c.GATEWAY_MODE === 'distributed')
  @Matches(/^https?:\/\/[^/\s]+$/, { message: 'APPROVALS_URL must be an http(s)://host:port URL without a path (required in distributed mode)' })
  APPROVALS_URL?: string;

  @ValidateIf((c: GatewayConfig) => c.GATEWAY_MODE === 'distributed')
  @Matches(/^https?:\/\/[^/\s]+$/, { message: 'INTENT_EVALUATOR_URL must be an http(s)://host:port URL without a path (required in distributed mode)' })
  INTENT_EVALUATOR_URL?: string;

  @ValidateIf((c: GatewayConfig) => c.GATEWAY_MODE === 'distributed')
  @Matches(/^https?:\/\/[^/\s]+$/, { message: 'MANDATE_ISSUER_URL must be an http(s)://host:port URL without a path (required in distributed mode)' })
  MANDATE_ISSUER_URL?: string;

  @ValidateIf((c: GatewayConfig) => c.GATEWAY_MODE === 'distributed')
  @Matches(/^https?:\/\/[^/\s]+$/, { message: 'DECISION_PROXY_URL must be an http(s)://host:port URL without a path (required in distributed mode)' })
  DECISION_PROXY_URL?: string;

  @ValidateIf((c: GatewayConfig) => c.GATEWAY_MODE === 'distributed')
  @Matches(/^https?:\/\/[^/\s]+$/, { message: 'WEBHOOK_DISPATCHER_URL must be an http(s)://host:port URL without a path (required in distributed mode)' })
  WEBHOOK_DISPATCHER_URL?: string;
}
