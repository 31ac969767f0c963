/**
 * Which service owns which public path prefix. In distributed mode the gateway forwards these to
 * the service's base URL; a service that is not built yet has no entry, so its routes are 404.
 */
export const SERVICE_ROUTES = [
  { service: 'policy-registry', urlSetting: 'POLICY_REGISTRY_URL', prefixes: ['/v1/intentions', '/v1/purposes', '/v1/intent-cards'] },
  { service: 'approvals', urlSetting: 'APPROVALS_URL', prefixes: ['/v1/approvals'] },
  // `/v1/intent` matches `/v1/intent/...` only, never `/v1/intent-cards` (prefixes end at a `/`).
  { service: 'intent-evaluator', urlSetting: 'INTENT_EVALUATOR_URL', prefixes: ['/v1/intent', '/v1/grants', '/v1/replays'] },
  // The JWKS needs no key (spec); the gateway forwards it without a caller.
  { service: 'mandate-issuer', urlSetting: 'MANDATE_ISSUER_URL', prefixes: ['/v1/mandate'], publicPaths: ['/v1/mandate/jwks'] },
  // `/mcp/{name}`: the MCP enforcement proxy, streamed both ways (DESIGN 6.13).
  { service: 'decision-proxy', urlSetting: 'DECISION_PROXY_URL', prefixes: ['/v1/mcp-proxy', '/v1/mcp-servers'], streamPrefixes: ['/mcp'] },
  { service: 'webhook-dispatcher', urlSetting: 'WEBHOOK_DISPATCHER_URL', prefixes: ['/v1/webhooks'] },
] as const;

export type ServiceName = (typeof SERVICE_ROUTES)[number]['service'];
