// Benchmark scenarios: one object each. Loaded by run.mjs (which calls `setup` against the running
// system before the load) and by loader.mjs (which calls `op` in its request loops), so keep this
// module free of side effects and of imports beyond node: built-ins.
//
//   name         unique, used by BENCH_SCENARIOS and in the output line
//   connections  keep-alive connections = concurrent request loops (closed loop)
//   warmupS      load applied before measuring (not recorded)
//   durationS    measured window (BENCH_DURATION_S overrides it)
//   rate         optional: evenly paced open-loop mode at this many ops/s (latency then includes
//                queueing behind a slow system); omit for closed loop (as fast as it answers)
//   note         optional: printed in the output line (what the numbers mean)
//   setup(ctx)   optional, runs in run.mjs: seed data through ctx.api; its JSON-serialisable
//                return value reaches `op` as `params` (and may return { note } to refine the note)
//   op(http, params, it)  runs in loader.mjs: ONE operation (latency = the whole function). Throw
//                (or let http.* throw on a non-2xx) to count an error. `it.seq` is unique per op
//                within the loader run, `it.loop` is the loop's index.

/** Intentions the list scenario reads back (one page: the list returns up to 200 full objects). */
const LIST_SEED = 20;

export const scenarios = [
  {
    name: 'list-intentions',
    connections: 50,
    warmupS: 2,
    durationS: 10,
    async setup(ctx) {
      for (let i = 0; i < LIST_SEED; i++) {
        const created = await ctx.api('POST', '/v1/intentions', { label: `bench.list.${i}`, intent_class: 'lookup' }, 201);
        await ctx.api('POST', `/v1/intentions/${created.id}/publish`, undefined, 200);
      }
      const page = await ctx.api('GET', '/v1/intentions', undefined, 200, { raw: true });
      const count = JSON.parse(page).data?.length;
      if (count !== LIST_SEED) throw new Error(`list-intentions: seeded ${LIST_SEED} intentions but the list returned ${count}`);
      return {
        note: `GET /v1/intentions over ${LIST_SEED} seeded, published intentions (one page of full objects, ${page.length} B body); 20 rather than 100+ keeps the page realistic`,
      };
    },
    op: (http) => http.get('/v1/intentions'),
  },
  {
    name: 'create-publish-intention',
    connections: 16,
    warmupS: 2,
    durationS: 10,
    note: 'one op = POST /v1/intentions (unique label) + POST /v1/intentions/{id}/publish; latency covers both calls',
    setup: () => ({ prefix: Math.random().toString(36).slice(2, 8) }),
    async op(http, params, it) {
      const created = await http.post('/v1/intentions', { label: `bench.cp.${params.prefix}.${it.seq}`, intent_class: 'lookup' }, { json: true });
      await http.post(`/v1/intentions/${created.id}/publish`);
    },
  },
];

export function findScenario(name) {
  const s = scenarios.find((x) => x.name === name);
  if (!s) throw new Error(`unknown scenario '${name}' (known: ${scenarios.map((x) => x.name).join(', ')})`);
  return s;
}
