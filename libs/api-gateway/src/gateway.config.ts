import { IsOptional, IsString, MinLength } from 'class-validator';
import { VERSION } from '@igw/kernel';
import type { GatewaySettings } from './application/ports/gateway-settings';
import { BaseConfig, IntSetting, ServiceUrlSetting } from '@igw/config';

/** Settings of the edge (in the api-gateway app and in the embedded process). */
export class GatewayConfig extends BaseConfig {
  /** Lets its holder manage orgs: create them (POST /v1/orgs) and set their rate limits (PATCH /v1/orgs/{id}). Unset: org management is off (403). */
  @IsOptional()
  @IsString()
  @MinLength(32, { message: 'PLATFORM_ADMIN_KEY must be at least 32 characters' })
  PLATFORM_ADMIN_KEY?: string;

  /** Admin key of org `default` on first start (embedded generates one when unset). */
  @IsOptional()
  @IsString()
  @MinLength(32, { message: 'BOOTSTRAP_ADMIN_KEY must be at least 32 characters' })
  BOOTSTRAP_ADMIN_KEY?: string;

  /** Default requests per second per API key, for orgs without their own limit (PATCH /v1/orgs/{id}). */
  @IntSetting('RATE_LIMIT_RPS', 1, 100000)
  RATE_LIMIT_RPS: number = 100;

  /** Default burst per API key: requests above RATE_LIMIT_RPS drawn from a pool refilled every 10 s. */
  @IntSetting('RATE_LIMIT_BURST', 1, 200000)
  RATE_LIMIT_BURST: number = 200;

  @ServiceUrlSetting('POLICY_REGISTRY_URL')
  POLICY_REGISTRY_URL?: string;

  @ServiceUrlSetting('APPROVALS_URL')
  APPROVALS_URL?: string;

  @ServiceUrlSetting('INTENT_EVALUATOR_URL')
  INTENT_EVALUATOR_URL?: string;

  @ServiceUrlSetting('MANDATE_ISSUER_URL')
  MANDATE_ISSUER_URL?: string;

  /** Where the decision-proxy service answers (distributed); several comma-separated URLs are balanced. */
  @ServiceUrlSetting('DECISION_PROXY_URL')
  DECISION_PROXY_URL?: string;

  /** Where the webhook-dispatcher service answers (distributed); several comma-separated URLs are balanced. */
  @ServiceUrlSetting('WEBHOOK_DISPATCHER_URL')
  WEBHOOK_DISPATCHER_URL?: string;
}

/** The gateway's settings from configuration: built here once for the embedded and the distributed root. */
export function gatewaySettings(config: GatewayConfig): GatewaySettings {
  return {
    mode: config.GATEWAY_MODE,
    version: VERSION,
    defaultRateLimit: { requestsPerSecond: config.RATE_LIMIT_RPS, burst: config.RATE_LIMIT_BURST },
    platformAdminKey: config.PLATFORM_ADMIN_KEY,
    bootstrapAdminKey: config.BOOTSTRAP_ADMIN_KEY,
  };
}
