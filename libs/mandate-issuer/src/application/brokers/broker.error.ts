import { AppError } from '@igw/kernel';

/**
 * Why a credential broker gave no usable answer.
 *
 * - `unavailable`: connection refused/reset, DNS failure, HTTP 5xx or 429 (Vault sealed or
 *   standby, Conjur down), or a 2xx answer that is not what the broker's API documents.
 * - `rejected`: the broker answered 4xx: the mandate did not satisfy its role / authenticator
 *   (wrong audience, issuer, bound claim, unknown role or host, expired JWT…). `brokerStatus`
 *   carries the status.
 * - `misconfigured`: the gateway cannot ask this broker at all (the kind is not configured, a
 *   revocation handle of another broker).
 * - `timeout`: no complete answer within the configured deadline.
 */
export type BrokerFailure = 'unavailable' | 'rejected' | 'misconfigured' | 'timeout';

/**
 * The one error the credential brokers throw. It is an AppError `bad_gateway` /
 * `broker_failed`, so if nothing maps it the HTTP layer answers 502 `broker_failed`
 * (DESIGN 6.8). Its `message` names the broker, the failure and the HTTP status only: never
 * the mandate, a broker token, a revocation handle or the broker's answer body.
 *
 * `detail` is for operators (logs), not for API callers: the broker's own error text (Vault's
 * `errors`), with anything that looks like a JWT or a Vault token redacted and cut to 300
 * characters. It is not part of `extra`, so it never reaches a response body.
 */
export class BrokerError extends AppError {
  constructor(
    readonly failure: BrokerFailure,
    /** `vault`, `conjur` or the unknown kind asked for. */
    readonly broker: string,
    message: string,
    options: { brokerStatus?: number; detail?: string } = {},
  ) {
    super('bad_gateway', 'broker_failed', message);
    this.name = 'BrokerError';
    this.brokerStatus = options.brokerStatus;
    this.detail = options.detail;
  }

  /** The broker's HTTP status, for `rejected` and HTTP-level `unavailable`. */
  readonly brokerStatus: number | undefined;
  /** Redacted broker error text, for logs only. */
  readonly detail: string | undefined;
}

const JWT_LIKE = /\beyJ[A-Za-z0-9_-]*\.[A-Za-z0-9_-]*\.[A-Za-z0-9_-]*/g;
// Vault service/batch/recovery tokens (hvs., hvb., hvr.), and legacy s./b. tokens.
const VAULT_TOKEN_LIKE = /\b(?:hv[sbr]|[sb])\.[A-Za-z0-9_-]{8,}/g;
const MAX_DETAIL = 300;

/**
 * A broker's error text made safe to log: every given secret (the mandate, a token) and
 * anything shaped like a JWT or a Vault token replaced by `[redacted]`, control characters
 * dropped, cut to 300 characters.
 */
export function redactBrokerText(text: string, secrets: readonly (string | undefined)[] = []): string {
  let out = text;
  for (const s of secrets) if (s && s.length >= 4) out = out.split(s).join('[redacted]');
  out = out.replace(JWT_LIKE, '[redacted]').replace(VAULT_TOKEN_LIKE, '[redacted]');
  // eslint-disable-next-line no-control-regex
  out = out.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim();
  return out.length > MAX_DETAIL ? `${out.slice(0, MAX_DETAIL - 1)}…` : out;
}
