import { IsIn, IsOptional, IsString, Matches, ValidateIf } from 'class-validator';
import { BaseConfig, IntSetting } from '@igw/config';

/**
 * Settings of the webhook dispatcher: the KEK that seals signing secrets at rest (required in
 * distributed mode, shared by every replica; embedded mode generates one under DATA_DIR), the
 * private-address escape hatch for development, the per-attempt deadline and the retry schedule.
 */
export class WebhookDispatcherConfig extends BaseConfig {
  /** 32 bytes, base64 / base64url or hex. Never logged. */
  @ValidateIf((c: WebhookDispatcherConfig) => c.GATEWAY_MODE === 'distributed' || c.WEBHOOK_KEK !== undefined)
  @IsString({ message: 'WEBHOOK_KEK must be set in distributed mode: 32 random bytes as base64 or hex (e.g. `openssl rand -base64 32`)' })
  @Matches(/^([0-9a-fA-F]{64}|[A-Za-z0-9+/_-]{43}=?)$/, { message: 'WEBHOOK_KEK must be 32 bytes as base64 (44 chars) or hex (64 chars)' })
  WEBHOOK_KEK?: string;

  /** Dev and tests only: deliver to private, loopback and link-local addresses too. */
  @IsOptional()
  @IsIn(['true', 'false'], { message: 'WEBHOOKS_ALLOW_PRIVATE must be "true" or "false"' })
  WEBHOOKS_ALLOW_PRIVATE?: string;

  /** Timeout of one webhook delivery attempt (default 10000); a slower endpoint is retried later. */
  @IsOptional()
  @IntSetting('WEBHOOK_TIMEOUT_MS', 100, 999999, 'WEBHOOK_TIMEOUT_MS must be a whole number of milliseconds from 100 to 999999')
  WEBHOOK_TIMEOUT_MS?: number;

  /** Kafka consumer group shared by the replicas of one deployment (default webhook-dispatcher). */
  @IsOptional()
  @Matches(/^[A-Za-z0-9._-]{1,200}$/, { message: 'WEBHOOK_CONSUMER_GROUP must be 1-200 characters of A-Z a-z 0-9 . _ -' })
  WEBHOOK_CONSUMER_GROUP?: string;

  /** Delays between attempts (default 5s,5m,30m,2h,5h,10h). */
  @IsOptional()
  @Matches(/^\s*\d+(\.\d+)?(ms|s|m|h)?\s*(,\s*\d+(\.\d+)?(ms|s|m|h)?\s*)*$/, {
    message: 'WEBHOOK_RETRY_SCHEDULE must be a comma list of durations such as 5s,5m,30m,2h,5h,10h',
  })
  WEBHOOK_RETRY_SCHEDULE?: string;
}
