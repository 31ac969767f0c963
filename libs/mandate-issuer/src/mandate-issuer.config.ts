import { IsOptional, IsString, Matches, ValidateIf } from 'class-validator';
import { BaseConfig, IntSetting, ServiceUrlSetting } from '@igw/config';
import { withBrokerSettings } from './broker.config';

/**
 * Settings of the mandate issuer: the key-encryption key that seals RSA private keys at rest
 * (required in distributed mode, shared by every replica; embedded mode generates one under
 * DATA_DIR), the registry's URL (distributed), and the credential brokers.
 */
export class MandateIssuerConfig extends withBrokerSettings(BaseConfig) {
  /** 32 bytes, base64 / base64url or hex. Never logged. */
  @ValidateIf((c: MandateIssuerConfig) => c.GATEWAY_MODE === 'distributed' || c.MANDATE_KEK !== undefined)
  @IsString({ message: 'MANDATE_KEK must be set in distributed mode: 32 random bytes as base64 or hex (e.g. `openssl rand -base64 32`)' })
  @Matches(/^([0-9a-fA-F]{64}|[A-Za-z0-9+/_-]{43}=?)$/, { message: 'MANDATE_KEK must be 32 bytes as base64 (44 chars) or hex (64 chars)' })
  MANDATE_KEK?: string;

  @ServiceUrlSetting('POLICY_REGISTRY_URL')
  POLICY_REGISTRY_URL?: string;

  /** Key rotation interval in days (default 30). */
  @IsOptional()
  @IntSetting('MANDATE_KEY_ROTATION_DAYS', 1, 9999, 'MANDATE_KEY_ROTATION_DAYS must be a whole number of days from 1 to 9999')
  MANDATE_KEY_ROTATION_DAYS?: number;
}
