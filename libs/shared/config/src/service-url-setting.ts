import { Matches, ValidateIf } from 'class-validator';
import type { BaseConfig } from './base.config';

const SERVICE_URL = /^https?:\/\/[^/\s,]+(,https?:\/\/[^/\s,]+)*$/;

/**
 * The base URL of another service: required in distributed mode, `http(s)://host:port` without a
 * path — or its replicas' URLs comma-separated (balanced by the caller).
 */
export function ServiceUrlSetting(name: string): PropertyDecorator {
  const message = `${name} must be an http(s)://host:port URL without a path, or several comma-separated (required in distributed mode)`;
  return (target, key) => {
    ValidateIf((c: BaseConfig) => c.GATEWAY_MODE === 'distributed')(target, key as string);
    Matches(SERVICE_URL, { message })(target, key as string);
  };
}
