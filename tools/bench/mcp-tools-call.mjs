// The mcp-tools-call scenario (DESIGN 6.13): what the MCP enforcement proxy adds to a tool call.
// Official SDK clients call the tool `echo` of a trivial SDK upstream, once through the gateway
// (`{base}/mcp/{name}`: mandate, decision, record, forward) and once directly, with the same
// client load in the same run; the line carries both and the overhead per call. A "custom"
// scenario: run.mjs calls its run(ctx) instead of setup/check/load (see README).
//
// run(ctx):
//   1. starts the upstream in the bench process: node:http on 127.0.0.1, per POST a fresh SDK
//      `Server` on a stateless Streamable HTTP transport (`enableJsonResponse`), one tool `echo`
//      that returns its arguments (as text and as structuredContent); GET/DELETE answer 405;
//   2. in a fresh org: the intent card (scope `S.echo` on `mcp://S/echo`, audience S, no rules:
//      a plain allow), `POST /v1/mcp-servers {name: S, url}` and one mandate (audience S);
//   3. checks with one SDK client that a call through the gateway returns the echo with
//      `_meta["igw/decision_id"]`, and that a direct call returns the echo (retried for a while:
//      in distributed mode the card reaches the decision proxy by events);
//   4. runs two loader jobs one after the other, direct first: `connections` SDK clients in the
//      loader process, each with its own MCP session (opened before the load by `prepare`, not
//      timed), each awaiting its previous call (closed loop), warm-up then the measured window.
//
// CPU per call: through the gateway, every app process of the system (not the upstream); directly,
// the bench process (the upstream alone: the bench process does nothing else during the load).
//
// The loader imports this module (through scenarios.mjs): importing it starts nothing, and the SDK
// is loaded (dynamic import) only when a client or the upstream is needed.
import { createServer } from 'node:http';
import { isDeepStrictEqual } from 'node:util';
import { cpuSeconds } from './cpu-time.mjs';

/** The upstream's name at the gateway: tool T is operation `${SERVER}.T` on `mcp://${SERVER}/T`. */
const SERVER = 'bench-echo';
const TOOL = 'echo';
const ACTOR = 'agent:bench-mcp';
const PROMPT_ID = 'prm_bench_mcp';
const CONNECTIONS = Number(process.env.BENCH_MCP_CONNECTIONS ?? 16);

const CARD = {
  id: 'bench-mcp-echo',
  name: 'Bench MCP echo agent',
  description: 'mcp-tools-call benchmark: one tool, no rules (plain allow).',
  allowed_scope: { operations: [`${SERVER}.${TOOL}`], resources: [`mcp://${SERVER}/${TOOL}`] },
  audiences: [SERVER],
  max_ttl_seconds: 3600,
};
const DISPENSE = {
  actor: ACTOR,
  intent_id: CARD.id,
  prompt_id: PROMPT_ID,
  requested_scope: { operations: [`${SERVER}.${TOOL}`], resources: [`mcp://${SERVER}/${TOOL}`] },
  audience: SERVER,
  ttl_seconds: 3600,
};
/** The arguments of every call (a small, realistic tool call) and its `_meta` (the decision context). */
const ARGS = { contact_id: '4821', fields: ['email', 'phone'], query: 'ada lovelace', limit: 25 };
const META = { actor: ACTOR, prompt_id: PROMPT_ID };

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);
const CHECK_TIMEOUT_MS = 20_000;
const PREPARE_TIMEOUT_MS = 30_000;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const round3 = (x) => (x === null || x === undefined || !Number.isFinite(x) ? null : Math.round(x * 1000) / 1000);

async function sdk() {
  const [{ Client }, { StreamableHTTPClientTransport }] = await Promise.all([
    import('@modelcontextprotocol/sdk/client/index.js'),
    import('@modelcontextprotocol/sdk/client/streamableHttp.js'),
  ]);
  return { Client, StreamableHTTPClientTransport };
}

/** An SDK client with its own session on `url` (headers on every request). */
async function connectClient(url, headers, name = 'bench-agent') {
  const target = new URL(url);
  if (target.protocol !== 'http:' || !LOOPBACK.has(target.hostname)) throw new Error(`refusing ${url}: only http://127.0.0.1 (loopback)`);
  const { Client, StreamableHTTPClientTransport } = await sdk();
  const client = new Client({ name, version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(target, { requestInit: { headers } }));
  return client;
}

const callEcho = (client) => client.callTool({ name: TOOL, arguments: ARGS, _meta: META });

/** Throws unless `result` is the echo of ARGS (and, through the gateway, carries a decision id). */
function checkResult(result, viaGateway) {
  if (result?.isError) throw new Error(`tool error: ${JSON.stringify(result.structuredContent ?? result.content).slice(0, 300)}`);
  if (!isDeepStrictEqual(result?.structuredContent, ARGS)) throw new Error(`not the echo: ${JSON.stringify(result).slice(0, 300)}`);
  const id = result?._meta?.['igw/decision_id'];
  if (viaGateway && !(typeof id === 'string' && id.startsWith('dec_'))) throw new Error(`no _meta["igw/decision_id"]: ${JSON.stringify(result._meta)}`);
  return id;
}

// ---- the upstream (runs in the bench process) ------------------------------------------------

async function startUpstream() {
  const [{ Server }, { StreamableHTTPServerTransport }, { CallToolRequestSchema, ListToolsRequestSchema }] = await Promise.all([
    import('@modelcontextprotocol/sdk/server/index.js'),
    import('@modelcontextprotocol/sdk/server/streamableHttp.js'),
    import('@modelcontextprotocol/sdk/types.js'),
  ]);
  let calls = 0;
  const tools = [{ name: TOOL, description: 'Returns its arguments.', inputSchema: { type: 'object', additionalProperties: true } }];
  // Stateless: a server and transport per request (the SDK's stateless transport serves one).
  const build = () => {
    const server = new Server({ name: 'bench-echo-upstream', version: '1.0.0' }, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, () => ({ tools }));
    server.setRequestHandler(CallToolRequestSchema, (req) => {
      if (req.params.name !== TOOL) return { isError: true, content: [{ type: 'text', text: `unknown tool ${req.params.name}` }] };
      calls++;
      const args = req.params.arguments ?? {};
      return { content: [{ type: 'text', text: JSON.stringify(args) }], structuredContent: args };
    });
    return server;
  };
  const http = createServer((req, res) => {
    if (req.method !== 'POST') {
      res.writeHead(405, { allow: 'POST' }).end();
      return;
    }
    const server = build();
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    server
      .connect(transport)
      .then(() => transport.handleRequest(req, res))
      .catch(() => {
        if (!res.headersSent) res.writeHead(500).end();
      });
  });
  http.keepAliveTimeout = 60_000;
  await new Promise((resolve, reject) => {
    http.once('error', reject);
    http.listen({ host: '127.0.0.1', port: 0 }, resolve);
  });
  return {
    url: `http://127.0.0.1:${http.address().port}/mcp`,
    calls: () => calls,
    close: () =>
      new Promise((r) => {
        http.closeAllConnections();
        http.close(() => r());
      }),
  };
}

// ---- the load (runs in the loader) -----------------------------------------------------------

/** One SDK client (session) per loop of the loader, opened by prepare. */
let clients = [];

async function prepare(params, { connections }) {
  const opening = Promise.all(Array.from({ length: connections }, () => connectClient(params.url, params.headers)));
  clients = await Promise.race([
    opening,
    sleep(PREPARE_TIMEOUT_MS).then(() => {
      throw new Error(`${connections} MCP sessions not open after ${PREPARE_TIMEOUT_MS / 1000} s`);
    }),
  ]);
}

async function op(_http, params, it) {
  checkResult(await callEcho(clients[it.loop]), params.viaGateway);
}

async function teardown() {
  // Ends each session (DELETE), so the gateway does not keep them until they idle out.
  await Promise.all(clients.map((c) => c.close().catch(() => {})));
  clients = [];
}

// ---- the scenario (run in run.mjs) -----------------------------------------------------------

/** Retries `fn` until it resolves or CHECK_TIMEOUT_MS pass (distributed: the card arrives by events). */
async function untilWorks(fn, what, ctx) {
  const deadline = Date.now() + CHECK_TIMEOUT_MS;
  for (;;) {
    try {
      return await fn();
    } catch (err) {
      if (Date.now() > deadline) throw new Error(`${what}: ${err?.message ?? err}`);
      ctx.assertAlive();
      await sleep(250);
    }
  }
}

/**
 * ctx (run.mjs): { mode, url, durationS, warmupS, log, createOrg(name), runLoader(job),
 * assertAlive(), appPids }. Resolves with the output line.
 */
async function run(ctx) {
  const upstream = await startUpstream();
  try {
    const org = await ctx.createOrg(`bench-mcp-${Math.random().toString(36).slice(2, 8)}`);
    await org.api('POST', '/v1/intent-cards', CARD, 201);
    await org.api('POST', '/v1/mcp-servers', { name: SERVER, url: upstream.url }, 201);
    const dispensed = await untilWorks(() => org.api('POST', '/v1/mandate/dispense', DISPENSE, 200), 'dispense', ctx);
    const mandate = dispensed?.credential;
    if (typeof mandate !== 'string' || mandate.split('.').length !== 3) throw new Error('mcp-tools-call: dispense returned no credential JWT');
    const gatewayUrl = `${ctx.url}/mcp/${SERVER}`;
    const gatewayHeaders = { authorization: `Bearer ${org.key}`, 'x-service-mandate': mandate };

    // Before timing: a call through the gateway returns the echo with a decision id, and so does
    // (without the id) a direct one.
    const decisionId = await untilWorks(
      async () => {
        const client = await connectClient(gatewayUrl, gatewayHeaders, 'bench-check');
        try {
          return checkResult(await callEcho(client), true);
        } finally {
          await client.close().catch(() => {});
        }
      },
      'the call through the gateway',
      ctx,
    );
    const direct = await connectClient(upstream.url, {}, 'bench-check');
    try {
      checkResult(await callEcho(direct), false);
    } finally {
      await direct.close().catch(() => {});
    }
    ctx.log(`${ctx.mode} mcp-tools-call: echo checked through the gateway (decision ${decisionId}) and directly`);

    const load = async (label, params, cpuPids) => {
      ctx.log(`${ctx.mode} mcp-tools-call ${label}: ${CONNECTIONS} SDK clients, ${ctx.warmupS} s warm-up + ${ctx.durationS} s measured...`);
      const before = upstream.calls();
      // Diagnostics (whole job, warm-up included): the CPU of the system and of the upstream, to
      // see e.g. a system still busy after start-up during the direct load.
      const [sys0, up0, t0] = [cpuSeconds(ctx.appPids), cpuSeconds([process.pid]), performance.now()];
      const r = await ctx.runLoader({ params, connections: CONNECTIONS, warmupS: ctx.warmupS, durationS: ctx.durationS, cpuPids });
      const wallS = (performance.now() - t0) / 1000;
      const share = (a, b) => (a === null || b === null ? '?' : `${Math.round(((b - a) / wallS) * 100)} %`);
      ctx.log(
        `${ctx.mode} mcp-tools-call ${label}: ${r.ops} calls in ${r.measured_s} s, mean ${r.mean_ms} ms, p90 ${r.p90_ms} ms, max ${r.max_ms} ms; ` +
          `${upstream.calls() - before} reached the upstream; CPU over the job (${wallS.toFixed(1)} s, one core = 100 %): system ${share(sys0, cpuSeconds(ctx.appPids))}, ` +
          `upstream ${share(up0, cpuSeconds([process.pid]))}` +
          (r.errors ? `; errors ${JSON.stringify(r.error_samples)}` : ''),
      );
      if (r.timed_out) throw new Error(`the ${label} load hit the loader's time limit`);
      ctx.assertAlive();
      return r;
    };
    const d = await load('direct', { url: upstream.url, headers: {}, viaGateway: false }, [process.pid]);
    const g = await load('via gateway', { url: gatewayUrl, headers: gatewayHeaders, viaGateway: true }, ctx.appPids);
    return {
      scenario: 'mcp-tools-call',
      mode: ctx.mode,
      rps: g.rps,
      p50_ms: g.p50_ms,
      p99_ms: g.p99_ms,
      errors: g.errors,
      ...(g.cpu_us_per_op !== undefined ? { cpu_us_per_op: g.cpu_us_per_op } : {}),
      direct_rps: d.rps,
      direct_p50_ms: d.p50_ms,
      direct_p99_ms: d.p99_ms,
      direct_errors: d.errors,
      ...(d.cpu_us_per_op !== undefined ? { direct_cpu_us_per_op: d.cpu_us_per_op } : {}),
      overhead_p50_ms: round3(g.p50_ms - d.p50_ms),
      overhead_p99_ms: round3(g.p99_ms - d.p99_ms),
      connections: CONNECTIONS,
      duration_s: ctx.durationS,
      note:
        `tools/call of \`${TOOL}\` (returns its arguments) from ${CONNECTIONS} official SDK clients (Streamable HTTP, a session each, closed loop) → ` +
        `gateway /mcp/${SERVER} (API key + X-Service-Mandate, decision on a card without rules = allow, recorded, forwarded) → SDK upstream ` +
        '(node:http, stateless, JSON responses); direct_* = the same clients calling the upstream directly, in the same run; ' +
        'overhead_* = gateway minus direct percentile; cpu_us_per_op = the system’s processes per call (not the upstream), ' +
        'direct_cpu_us_per_op = the upstream’s',
    };
  } finally {
    await upstream.close();
  }
}

export const mcpToolsCallScenario = {
  name: 'mcp-tools-call',
  warmupS: 2,
  durationS: 10,
  note: 'SDK client → gateway /mcp/{name} → SDK upstream, against the same clients calling the upstream directly (DESIGN 6.13)',
  run,
  // Loader side: the clients (one per loop) and one call per op.
  prepare,
  op,
  teardown,
};
