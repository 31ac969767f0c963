// The webhook-delivery scenario (DESIGN 6.11): how many signed deliveries per second the webhook
// dispatcher gets to a local receiver, and how long after the triggering API call returned each
// one arrives. A "custom" scenario: run.mjs calls its run(ctx) instead of setup/check/load (see
// README), and only its event source (`op`, `collect`) runs in the loader process.
//
// run(ctx):
//   1. a fresh org (so no event of another scenario, or of a Kafka backlog, reaches the webhook),
//      and what the source needs in it (the mcp-proxy card and a mandate for decision.made);
//   2. a node:http receiver in the bench process on 127.0.0.1 that answers 204 and records, per
//      delivery, its receive time (wall clock, sub-ms), `webhook-id` and the correlating key of the
//      body (data.decision_id / data.id); a sample is kept for the signature check;
//   3. POST /v1/webhooks {url, events: [type]} with the org's admin key, then one event, not
//      counted, and waits for its delivery (the dispatcher is then past any Kafka backlog on the
//      org's partition: a shared broker keeps earlier runs' events);
//   4. the loader drives the source in closed loops for the duration (no warm-up: warm-up events
//      would be delivered too); every op records the key of the event it caused and the wall-clock
//      time its API call returned, handed back in the loader's result (`collected`);
//   5. waits until every event has been delivered (or BENCH_WEBHOOK_WAIT_S), then 1 s more to catch
//      duplicates; verifies the signatures of the sample (Standard Webhooks: base64 HMAC-SHA256
//      over `${webhook-id}.${webhook-timestamp}.${body}` with the key after `whsec_`); deletes the
//      webhook and stops the receiver.
//
// Settings: BENCH_WEBHOOK_EVENT (decision.made, default, or intention.published),
// BENCH_WEBHOOK_MAX_EVENTS (default 20000: the load stops there even before the duration ends),
// BENCH_WEBHOOK_WAIT_S (default 120: longest wait for the event before the load, and for the
// deliveries after it).
//
// The loader imports this module (through scenarios.mjs): importing it starts nothing.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';
import { BENCH_CALL, PROXY_CARD, PROXY_DISPENSE, until404Ends } from './proxy-card.mjs';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
/** Wall-clock ms with sub-ms resolution, comparable between the loader and the bench process. */
const wallMs = () => performance.timeOrigin + performance.now();
const round3 = (x) => (x === null || x === undefined || !Number.isFinite(x) ? null : Math.round(x * 1000) / 1000);

/** Deliveries whose signature is checked: the first VERIFY_FIRST, then every VERIFY_EVERY-th. */
const VERIFY_FIRST = 50;
const VERIFY_EVERY = 10;
/** After the last expected delivery: how long to keep listening for duplicates. */
const LINGER_MS = 1000;

// ---- event sources (op and collect run in the loader) --------------------------------------

/** Filled by op in the loader: the key of each event caused and when its call returned. */
const sentKeys = [];
const sentAt = [];
const collect = () => ({ keys: sentKeys, at: sentAt.map(round3) });

const SOURCES = {
  // One op = one POST /v1/mcp-proxy/call (allow) = one decision.made, keyed by decision_id.
  'decision.made': {
    connections: 16,
    describe: `POST /v1/mcp-proxy/call (card ${PROXY_CARD.id}, allow)`,
    keyOf: (data) => data?.decision_id,
    async setup(api) {
      await api('POST', '/v1/intent-cards', PROXY_CARD);
      const dispensed = await until404Ends(() => api('POST', '/v1/mandate/dispense', PROXY_DISPENSE, 200), 'dispense');
      const mandate = dispensed?.credential;
      if (typeof mandate !== 'string') throw new Error('webhook-delivery: dispense returned no credential');
      return { params: { body: BENCH_CALL }, headers: { 'x-service-mandate': mandate } };
    },
    // The call must answer 200 before we measure (in distributed mode the card reaches the proxy by events).
    sentinel: (api, { headers }) => until404Ends(() => api('POST', '/v1/mcp-proxy/call', BENCH_CALL, 200, { headers }), 'mcp-proxy call'),
    async op(http, params) {
      const res = await http.post('/v1/mcp-proxy/call', (params.json ??= JSON.stringify(params.body)), { status: 200, json: true });
      const key = res?.decision?.decision_id;
      if (typeof key !== 'string') throw new Error('mcp-proxy call answered no decision.decision_id');
      sentKeys.push(key);
      sentAt.push(wallMs());
    },
  },
  // One op = POST /v1/intentions + POST /v1/intentions/{id}/publish = one intention.published, keyed by id.
  'intention.published': {
    connections: 16,
    describe: 'POST /v1/intentions + POST /v1/intentions/{id}/publish',
    keyOf: (data) => data?.id,
    setup: () => ({ params: { prefix: Math.random().toString(36).slice(2, 8) }, headers: {} }),
    async sentinel(api, { params }) {
      const created = await api('POST', '/v1/intentions', { label: `bench.wh.${params.prefix}.sentinel`, intent_class: 'lookup' }, 201);
      await api('POST', `/v1/intentions/${created.id}/publish`, undefined, 200);
    },
    async op(http, params, it) {
      const created = await http.post('/v1/intentions', { label: `bench.wh.${params.prefix}.${it.seq}`, intent_class: 'lookup' }, { json: true });
      await http.post(`/v1/intentions/${created.id}/publish`, undefined, { status: 200 });
      sentKeys.push(created.id);
      sentAt.push(wallMs());
    },
  },
};

// ---- the receiver (runs in the bench process) ----------------------------------------------

/** Standard Webhooks 1.0: true when one of the `v1,` signatures is the HMAC of id.timestamp.body. */
export function verifySignature(secret, id, timestamp, body, header) {
  if (typeof secret !== 'string' || !secret.startsWith('whsec_') || !id || !timestamp || !header) return false;
  const expected = createHmac('sha256', Buffer.from(secret.slice('whsec_'.length), 'base64'))
    .update(`${id}.${timestamp}.${body}`)
    .digest();
  return String(header)
    .split(' ')
    .some((entry) => {
      const [version, sig] = entry.split(',');
      if (version !== 'v1' || !sig) return false;
      const got = Buffer.from(sig, 'base64');
      return got.length === expected.length && timingSafeEqual(got, expected);
    });
}

/**
 * node:http on 127.0.0.1:0, 204 to every POST. Records { id, t, key, ts } per delivery (t: after
 * the whole body arrived); keeps headers and body of a sample for the signature check.
 */
async function startReceiver(keyOf) {
  const deliveries = [];
  const samples = [];
  let bad = 0;
  const badSamples = [];
  const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const t = wallMs();
      res.writeHead(204).end();
      const body = Buffer.concat(chunks).toString('utf8');
      const id = req.headers['webhook-id'];
      let json;
      try {
        json = JSON.parse(body);
      } catch {
        json = undefined;
      }
      if (req.method !== 'POST' || !id || !json) {
        bad++;
        if (badSamples.length < 5) badSamples.push(`${req.method} id=${id} ${body.slice(0, 120)}`);
        return;
      }
      const n = deliveries.push({ id, t, key: keyOf(json.data), ts: json.timestamp, type: json.type });
      if (n <= VERIFY_FIRST || n % VERIFY_EVERY === 0)
        samples.push({ id, timestamp: req.headers['webhook-timestamp'], signature: req.headers['webhook-signature'], body });
    });
  });
  server.keepAliveTimeout = 30_000;
  await new Promise((res, rej) => {
    server.once('error', rej);
    server.listen({ host: '127.0.0.1', port: 0 }, res);
  });
  return {
    url: `http://127.0.0.1:${server.address().port}/hook`,
    deliveries,
    samples,
    bad: () => bad,
    badSamples,
    close: () =>
      new Promise((r) => {
        server.closeAllConnections?.();
        server.close(() => r());
      }),
  };
}

const pct = (sorted, p) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] : null);

// ---- the scenario (run in run.mjs) ----------------------------------------------------------

function settings(env) {
  const type = env.BENCH_WEBHOOK_EVENT || 'decision.made';
  if (!SOURCES[type]) throw new Error(`BENCH_WEBHOOK_EVENT must be one of ${Object.keys(SOURCES).join(', ')}`);
  const num = (name, dflt) => {
    const v = env[name] === undefined || env[name] === '' ? dflt : Number(env[name]);
    if (!(v > 0)) throw new Error(`${name} must be a positive number`);
    return v;
  };
  return { type, maxEvents: Math.floor(num('BENCH_WEBHOOK_MAX_EVENTS', 20_000)), waitS: num('BENCH_WEBHOOK_WAIT_S', 120) };
}

/**
 * ctx (run.mjs): { mode, url, durationS, log, createOrg(name) → { key, api }, runLoader(job) →
 * loader result, assertAlive() }. Resolves with the output line.
 */
async function run(ctx) {
  const s = settings(process.env);
  const source = SOURCES[s.type];
  const org = await ctx.createOrg(`bench-webhooks-${Math.random().toString(36).slice(2, 8)}`);
  const prepared = await source.setup(org.api);
  const { params, headers } = prepared;
  const receiver = await startReceiver(source.keyOf);
  let hookId;
  try {
    const hook = await org.api('POST', '/v1/webhooks', { url: receiver.url, events: [s.type], description: 'bench webhook-delivery' }, 201);
    hookId = hook.id;
    if (typeof hook.secret !== 'string' || !hook.secret.startsWith('whsec_')) throw new Error('POST /v1/webhooks returned no whsec_ secret');

    // One event before the load, and wait for its delivery: the dispatcher's consumer group is
    // then past any backlog on the org's partition (a shared Kafka keeps the events of earlier
    // runs and scenarios, e.g. mcp-proxy-call's decisions, and a group new to the broker starts
    // from the beginning). Not counted.
    const catchUpStart = Date.now();
    await source.sentinel(org.api, prepared);
    while (!receiver.deliveries.some((d) => d.type === s.type)) {
      if (Date.now() - catchUpStart > s.waitS * 1000)
        throw new Error(`the event before the load was not delivered within ${s.waitS} s (dispatcher behind on a Kafka backlog?)`);
      ctx.assertAlive();
      await sleep(20);
    }
    ctx.log(`${ctx.mode} webhook-delivery: the event before the load was delivered after ${Date.now() - catchUpStart} ms`);
    await sleep(200);
    const before = receiver.deliveries.length;

    ctx.log(
      `${ctx.mode} webhook-delivery: ${s.type} from ${source.connections} loops for ${ctx.durationS} s (at most ${s.maxEvents} events) to ${receiver.url}...`,
    );
    const r = await ctx.runLoader({
      scenario: 'webhook-delivery',
      params: { ...params, event: s.type },
      headers: { authorization: `Bearer ${org.key}`, ...headers },
      connections: source.connections,
      warmupS: 0,
      durationS: ctx.durationS,
      maxOps: s.maxEvents,
    });
    if (!r.collected) throw new Error(`the loader returned no events (timed_out ${r.timed_out})`);
    const { keys, at } = r.collected;
    ctx.log(
      `${ctx.mode} webhook-delivery: ${keys.length} events in ${r.measured_s} s (${r.rps}/s, call p99 ${r.p99_ms} ms)` +
        (r.errors ? `, errors ${JSON.stringify(r.error_samples)}` : '') +
        `; ${receiver.deliveries.length} delivered so far, waiting...`,
    );

    // Match deliveries to events as they come, until every event is delivered or the wait ends.
    const sent = new Map(keys.map((k, i) => [k, at[i]]));
    const seenIds = new Set(receiver.deliveries.slice(0, before).map((d) => d.id));
    const delivered = new Map(); // key → delay from the call's return (ms)
    const fromOccurred = [];
    let duplicates = 0;
    let unexpected = 0;
    let firstT = Infinity;
    let lastT = -Infinity;
    let next = before;
    const drain = () => {
      for (; next < receiver.deliveries.length; next++) {
        const d = receiver.deliveries[next];
        if (seenIds.has(d.id)) {
          duplicates++;
          continue;
        }
        seenIds.add(d.id);
        const returned = sent.get(d.key);
        if (returned === undefined || delivered.has(d.key) || d.type !== s.type) {
          unexpected++;
          continue;
        }
        delivered.set(d.key, d.t - returned);
        const occurred = Date.parse(d.ts);
        if (Number.isFinite(occurred)) fromOccurred.push(d.t - occurred);
        if (d.t < firstT) firstT = d.t;
        if (d.t > lastT) lastT = d.t;
      }
    };
    const deadline = Date.now() + s.waitS * 1000;
    let lastProgress = Date.now();
    let lastCount = -1;
    for (;;) {
      drain();
      if (delivered.size >= sent.size || Date.now() > deadline) break;
      if (delivered.size !== lastCount) {
        lastCount = delivered.size;
        lastProgress = Date.now();
      } else if (Date.now() - lastProgress > 15_000) {
        ctx.log(`${ctx.mode} webhook-delivery: no delivery for 15 s at ${delivered.size}/${sent.size}`);
        lastProgress = Date.now();
      }
      ctx.assertAlive();
      await sleep(20);
    }
    const timedOut = delivered.size < sent.size;
    await sleep(LINGER_MS);
    drain();
    ctx.assertAlive();

    let sigFailures = 0;
    // The sample includes the event before the load (its signature is as good a check).
    for (const x of receiver.samples) if (!verifySignature(hook.secret, x.id, x.timestamp, x.body, x.signature)) sigFailures++;
    const delays = [...delivered.values()].sort((a, b) => a - b);
    fromOccurred.sort((a, b) => a - b);
    const windowS = delivered.size > 1 ? (lastT - firstT) / 1000 : null;
    const badRequests = receiver.bad();
    if (sigFailures || badRequests || unexpected || duplicates || timedOut) {
      ctx.log(
        `${ctx.mode} webhook-delivery: signature failures ${sigFailures}/${receiver.samples.length}, malformed ${badRequests} ${JSON.stringify(receiver.badSamples)}, ` +
          `unexpected ${unexpected}, duplicates ${duplicates}, missing ${sent.size - delivered.size}`,
      );
    }
    ctx.log(
      `${ctx.mode} webhook-delivery: ${delivered.size}/${sent.size} delivered; first ${round3(firstT - at[0])} ms after the first event returned, ` +
        `last ${round3(lastT - at.at(-1))} ms after the last event returned; delay mean ${round3(delays.reduce((a, b) => a + b, 0) / (delays.length || 1))} ms, ` +
        `p90 ${round3(pct(delays, 90))} ms, max ${round3(delays.at(-1))} ms, min ${round3(delays[0])} ms; from occurred_at p50 ${round3(pct(fromOccurred, 50))} ms`,
    );
    return {
      scenario: 'webhook-delivery',
      mode: ctx.mode,
      events: sent.size,
      delivered: delivered.size,
      deliveries_per_s: windowS ? Math.round((delivered.size / windowS) * 10) / 10 : null,
      delay_p50_ms: round3(pct(delays, 50)),
      delay_p99_ms: round3(pct(delays, 99)),
      duplicates,
      errors: r.errors + sigFailures + badRequests,
      event: s.type,
      events_per_s: r.rps,
      drain_s: delivered.size ? round3((lastT - at.at(-1)) / 1000) : null,
      signatures_checked: receiver.samples.length,
      ...(unexpected ? { unexpected } : {}),
      ...(timedOut ? { missing: sent.size - delivered.size, timed_out: true } : {}),
      connections: source.connections,
      duration_s: ctx.durationS,
      note:
        `${source.describe} from ${source.connections} closed loops (fresh org, no warm-up) → ${s.type} → signed POST to a node:http receiver on 127.0.0.1 (204). ` +
        'delay = receive time minus the moment the triggering call returned (wall clock, two processes); deliveries_per_s = delivered / (last − first delivery); ' +
        'drain_s = last delivery minus the last event; errors = failed calls + bad signatures (a sample: first 50, then every 10th) + malformed deliveries',
    };
  } finally {
    if (hookId)
      await org
        .api('DELETE', `/v1/webhooks/${hookId}`, undefined, 204)
        .catch((err) => ctx.log(`webhook-delivery: could not delete the webhook: ${err.message}`));
    await receiver.close();
  }
}

export const webhookDeliveryScenario = {
  name: 'webhook-delivery',
  durationS: 10,
  note: 'deliveries per second and delay from the triggering call to the signed delivery (DESIGN 6.11)',
  run,
  // Loader side: the event source named in params.event.
  op: (http, params, it) => SOURCES[params.event].op(http, params, it),
  collect,
};
