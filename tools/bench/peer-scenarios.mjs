// The ops the loader runs against the peers of the mcp-proxy-call scenarios (peers.mjs). The
// loader loads this module instead of scenarios.mjs when a job says `module: './peer-scenarios.mjs'`.
// Like scenarios.mjs: no side effects, node: built-ins only. `params.body` is serialised once per
// loader (our scenario's op does the same), so the loader spends the same work per op on every side.

const once = (p) => (p.json ??= JSON.stringify(p.body));

export const scenarios = [
  {
    // POST /api/check/resources of the Cerbos PDP: the card's rules as a resource policy. Always
    // 200 (the effect is in the body, checked once before the load by peers.mjs).
    name: 'cerbos',
    op: (http, p) => http.post('/api/check/resources', once(p), { status: 200 }),
  },
  {
    // The bare node:http server (bare-server.mjs): mandate verified (cached per token), JSON allow.
    name: 'bare-node-http',
    op: (http, p) => http.post('/v1/mcp-proxy/call', once(p), { status: 200 }),
  },
];

export function findScenario(name) {
  const s = scenarios.find((x) => x.name === name);
  if (!s) throw new Error(`unknown peer '${name}' (known: ${scenarios.map((x) => x.name).join(', ')})`);
  return s;
}
