// Reference peer of the mcp-proxy-call scenarios (started by peers.mjs as its own process): a bare
// node:http server that does only what no decision proxy can skip. It fetches the mandate JWKS
// once at start (JWKS_URL, e.g. the system's GET /v1/mandate/jwks), and for each
// POST /v1/mcp-proxy/call reads and parses the JSON body, verifies the RS256 mandate in
// X-Service-Mandate (node:crypto; the verified claims are cached per token, as
// docs/toolchain advises for the real thing), checks `nbf`/`exp` against the clock and `aud`
// against the body's `audience`, and answers a small JSON `allow`. No API key check, no scope,
// no rules, no record of the decision: a floor, not a competitor.
//
// Environment: PORT (required), JWKS_URL (required), HOST (default 127.0.0.1).
// Prints one line `{"listening":<port>,"keys":<n>}` on stdout when ready.
import { createPublicKey, verify } from 'node:crypto';
import { createServer } from 'node:http';

const port = Number(process.env.PORT);
const jwksUrl = process.env.JWKS_URL;
if (!(port > 0) || !jwksUrl) {
  process.stderr.write('bare-server: PORT and JWKS_URL are required\n');
  process.exit(2);
}

const res = await fetch(jwksUrl, { signal: AbortSignal.timeout(10_000) });
if (!res.ok) throw new Error(`GET ${jwksUrl} -> ${res.status}`);
const jwks = await res.json();
const keys = new Map();
for (const jwk of jwks.keys ?? []) {
  if (jwk.kty === 'RSA' && (jwk.alg === undefined || jwk.alg === 'RS256'))
    keys.set(jwk.kid, createPublicKey({ key: { kty: jwk.kty, n: jwk.n, e: jwk.e }, format: 'jwk' }));
}
if (keys.size === 0) throw new Error(`${jwksUrl} has no RS256 key`);

const MAX_CACHED = 10_000;
/** token → verified claims (only valid signatures are cached). */
const cache = new Map();

const json = (b64) => JSON.parse(Buffer.from(b64, 'base64url').toString('utf8'));

/** The claims of a token whose RS256 signature checks out against the JWKS, else null. */
function verifySignature(token) {
  const dot1 = token.indexOf('.');
  const dot2 = token.indexOf('.', dot1 + 1);
  if (dot1 < 0 || dot2 < 0 || token.indexOf('.', dot2 + 1) >= 0) return null;
  try {
    const header = json(token.slice(0, dot1));
    if (header.alg !== 'RS256') return null;
    const key = keys.get(header.kid);
    if (!key) return null;
    const ok = verify('sha256', Buffer.from(token.slice(0, dot2)), key, Buffer.from(token.slice(dot2 + 1), 'base64url'));
    return ok ? json(token.slice(dot1 + 1, dot2)) : null;
  } catch {
    return null;
  }
}

function claimsOf(token) {
  let claims = cache.get(token);
  if (claims === undefined) {
    claims = verifySignature(token);
    if (claims === null) return null;
    if (cache.size >= MAX_CACHED) cache.clear();
    cache.set(token, claims);
  }
  return claims;
}

let seq = 0;
function answer(resp, status, body) {
  const text = JSON.stringify(body);
  resp.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  resp.end(text);
}

const server = createServer((req, resp) => {
  if (req.method !== 'POST' || req.url !== '/v1/mcp-proxy/call') return answer(resp, 404, { code: 'not_found', message: 'POST /v1/mcp-proxy/call only' });
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    let body;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      return answer(resp, 400, { code: 'invalid_request', message: 'body is not JSON' });
    }
    const token = req.headers['x-service-mandate'];
    const claims = typeof token === 'string' ? claimsOf(token) : null;
    const now = Math.floor(Date.now() / 1000);
    if (
      claims === null ||
      typeof claims.exp !== 'number' ||
      claims.exp <= now ||
      (typeof claims.nbf === 'number' && claims.nbf > now + 60) ||
      !(Array.isArray(claims.aud) ? claims.aud.includes(body?.audience) : claims.aud === body?.audience)
    ) {
      return answer(resp, 401, { code: 'mandate_invalid', message: 'the mandate failed its signature, exp or aud check' });
    }
    answer(resp, 200, {
      decision: { kind: 'allow', decision_id: `dec_bare_${++seq}` },
      mandate: { cred_id: claims.jti, prompt_id: claims.prompt_id, intent_id: claims.intent_id },
    });
  });
});
server.keepAliveTimeout = 65_000;
server.headersTimeout = 70_000;
server.listen({ host: process.env.HOST ?? '127.0.0.1', port }, () => {
  process.stdout.write(`${JSON.stringify({ listening: port, keys: keys.size })}\n`);
});
for (const sig of ['SIGTERM', 'SIGINT']) process.on(sig, () => server.close(() => process.exit(0)).closeAllConnections());
