// The replay-10k scenario (DESIGN 6.16, issue 28): how long `POST /v1/replays` takes to re-decide
// 10,000 kept calls against a one-intention change. A "custom" scenario: run.mjs calls run(ctx).
//
// run(ctx):
//   1. in a fresh org, publishes three intentions (one bound to the seeded tools, two classified
//      lexically) and records BENCH_REPLAY_CALLS (default 10,000) evaluations through the public
//      API, 32 in flight, over six tools (allowed, held and ambient calls: every cascade layer
//      the lexical path has);
//   2. replays archiving the bound intention BENCH_REPLAY_RUNS times (default 3), one after the
//      other, and reports each run's wall time as the client saw it. Target: ≤ 5 s embedded.
//
// Importing this module starts nothing (scenarios.mjs loads it into the loader too).

const CALLS = Number(process.env.BENCH_REPLAY_CALLS ?? 10_000);
const RUNS = Number(process.env.BENCH_REPLAY_RUNS ?? 3);
const IN_FLIGHT = 32;

const INTENTIONS = [
  { label: 'bench_replay.contacts', intent_class: 'lookup', description: 'Read CRM contacts.', tools: ['crm.get_contact', 'crm.search_contacts'] },
  {
    label: 'bench_replay.ledger',
    intent_class: 'lookup',
    display_name: 'Look up ledger entries',
    description: 'Read general ledger entries and balances to answer a finance question.',
  },
  {
    label: 'bench_replay.tickets',
    intent_class: 'lookup',
    display_name: 'Read support tickets',
    description: 'Read a Zendesk support ticket and its comments to answer a customer.',
  },
];
const TOOLS = [
  (n) => ({ name: 'crm.get_contact', arguments: { contact_id: `c_${n}`, fields: ['email'] } }),
  (n) => ({ name: 'crm.search_contacts', arguments: { query: `ada ${n}` } }),
  (n) => ({ name: 'erp.fetch_ledger_entry', arguments: { entry_id: `LE-${n}` } }),
  (n) => ({ name: 'zendesk.get_ticket', arguments: { ticket_id: n } }),
  (n) => ({ name: 'zendesk.list_ticket_comments', arguments: { ticket_id: n } }),
  (n) => ({ name: 'weather.get_forecast', arguments: { city: 'Berlin' } }),
];

async function run(ctx) {
  const org = await ctx.createOrg(`bench-replay-${Math.random().toString(36).slice(2, 8)}`);
  const ids = [];
  for (const body of INTENTIONS) {
    const created = await org.api('POST', '/v1/intentions', body, 201);
    await org.api('POST', `/v1/intentions/${created.id}/publish`, undefined, 200);
    ids.push(created.id);
  }
  const seedStarted = performance.now();
  let next = 0;
  const worker = async () => {
    while (next < CALLS) {
      const n = next++;
      await org.api('POST', '/v1/intent/evaluate', { tool_call: TOOLS[n % TOOLS.length](n), user_id: `u_${n % 50}` }, 200);
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
  const seedS = (performance.now() - seedStarted) / 1000;
  ctx.log(`replay-10k: ${CALLS} calls recorded in ${seedS.toFixed(1)} s`);

  const body = { kind: 'intentions', changes: [{ action: 'archive', id: ids[0] }], limit: Math.min(CALLS, 10_000) };
  const runs = [];
  let last;
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    last = await org.api('POST', '/v1/replays', body, 200);
    runs.push(Math.round(performance.now() - started));
  }
  if (last.replayed !== Math.min(CALLS, 10_000)) throw new Error(`replay-10k: replayed ${last.replayed}, expected ${Math.min(CALLS, 10_000)}`);
  const sorted = [...runs].sort((a, b) => a - b);
  return {
    scenario: 'replay-10k',
    mode: ctx.mode,
    replayed: last.replayed,
    changed: last.transitions.reduce((n, t) => n + t.count, 0),
    replay_ms: runs,
    median_ms: sorted[Math.floor(sorted.length / 2)],
    target_ms: 5000,
    seed_s: Math.round(seedS * 10) / 10,
  };
}

export const replay10kScenario = { name: 'replay-10k', run };
