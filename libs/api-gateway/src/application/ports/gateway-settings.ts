import type { RateLimitPolicy } from '../../domain/rate-limit';

export const GATEWAY_SETTINGS = Symbol('GATEWAY_SETTINGS');

/** The part of the validated config the gateway's use cases read. */
export interface GatewaySettings {
  mode: 'embedded' | 'distributed';
  version: string;
  defaultRateLimit: RateLimitPolicy;
  platformAdminKey?: string;
  bootstrapAdminKey?: string;
}
