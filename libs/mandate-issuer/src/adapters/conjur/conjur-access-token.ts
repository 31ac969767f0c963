/** Conjur access tokens expire after 8 minutes (Conjur docs, "Authenticate using REST APIs"). */
export const CONJUR_TOKEN_TTL_SECONDS = 8 * 60;

function jsonObject(text: string): Record<string, unknown> | null {
  try {
    const value = JSON.parse(text) as unknown;
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/**
 * The access token an authenticate call answered, base64-encoded as Conjur returns it with
 * `Accept-Encoding: base64`, or null when the body is not a Conjur access token (a JSON object,
 * base64-encoded or raw). A raw JSON token (a server that ignored the header) is base64-encoded
 * here, as Conjur's docs tell clients to do before using it in `Authorization: Token token="…"`.
 */
export function normaliseConjurToken(body: string): { token: string; json: Record<string, unknown> } | null {
  const text = body.trim();
  if (!text) return null;
  if (/^[A-Za-z0-9+/=\s]+$/.test(text)) {
    const json = jsonObject(Buffer.from(text, 'base64').toString('utf8'));
    if (json) return { token: text.replace(/\s+/g, ''), json };
  }
  const json = jsonObject(text);
  return json ? { token: Buffer.from(text, 'utf8').toString('base64'), json } : null;
}

/**
 * When a Conjur access token stops working: its `exp` claim (v5 tokens are
 * `{protected, payload, signature}` with a base64url JSON payload holding `iat` and usually
 * `exp`), else `iat` + 8 minutes, else the legacy `timestamp` + 8 minutes, else `issuedNoLaterThan`
 * + 8 minutes (the moment the request was sent: conservative). Never later than `iat` + 8 min
 * would allow when only `iat` is known.
 */
export function conjurTokenExpiry(json: Record<string, unknown>, issuedNoLaterThan: Date): Date {
  const ttlMs = CONJUR_TOKEN_TTL_SECONDS * 1000;
  if (typeof json['payload'] === 'string') {
    const payload = jsonObject(Buffer.from(json['payload'], 'base64url').toString('utf8'));
    const exp = payload?.['exp'];
    if (typeof exp === 'number' && Number.isFinite(exp)) return new Date(exp * 1000);
    const iat = payload?.['iat'];
    if (typeof iat === 'number' && Number.isFinite(iat)) return new Date(iat * 1000 + ttlMs);
  }
  if (typeof json['timestamp'] === 'string') {
    const t = Date.parse(json['timestamp']);
    if (Number.isFinite(t)) return new Date(t + ttlMs);
  }
  return new Date(issuedNoLaterThan.getTime() + ttlMs);
}
