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
//   check(ctx, params)  optional, runs in run.mjs after setup: throw if the system does not answer
//                as the scenario assumes (the scenario then fails, but its peers still run)
//   op(http, params, it)  runs in loader.mjs: ONE operation (latency = the whole function). Throw
//                (or let http.* throw on a non-2xx; `{status: 200}` demands exactly that status) to
//                count an error. `it.seq` is unique per op within the loader run, `it.loop` is the
//                loop's index.
//   headers(params)  optional, runs in run.mjs: extra headers sent with every request of the load
//                (e.g. the mandate), merged over the bench key's authorization
//   peers        optional: also measure the peers (peers.mjs) with this scenario's load shape, once
//                per bench run, and print their lines and a ratio line after ours (see README)
//
//   run(ctx)     optional, makes a "custom" scenario: run.mjs calls it instead of setup, check and
//                the load, and prints the line it resolves with (see README and webhook-delivery.mjs)
//   collect(params)  optional, runs in loader.mjs after the load: its JSON-serialisable result is
//                returned as the loader result's `collected`
//
//   prepare(params, { connections })  optional, runs in loader.mjs before the clock starts (not
//                timed): per-loop state for `op` (mcp-tools-call opens an MCP session per loop)
//   teardown(params)  optional, runs in loader.mjs after the load
//
// Besides node: built-ins this module imports only proxy-card.mjs (constants, no side effects),
// webhook-delivery.mjs (node: built-ins and proxy-card.mjs; importing it starts nothing),
// mcp-tools-call.mjs (node: built-ins; it loads the MCP SDK only when it runs), replay-10k.mjs
// (no imports) and stats-1m.mjs (node: built-ins; it loads pg, PGlite and the built kernel
// only when it runs).
import { BENCH_CALL, PROXY_CARD, PROXY_DISPENSE, PROXY_RULES, SETUP_PROBE_RULE, probeCall, until404Ends } from './proxy-card.mjs';
import { mcpToolsCallScenario } from './mcp-tools-call.mjs';
import { webhookDeliveryScenario } from './webhook-delivery.mjs';
import { replay10kScenario } from './replay-10k.mjs';
import { stats1mScenario } from './stats-1m.mjs';

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

/** Intentions an org of the evaluate scenario has published (realistic operator-written ones). */
const EVALUATE_INTENTIONS = [
  [
    'crm.contact_lookup',
    'Look up a CRM contact',
    'Read a HubSpot contact (email, phone) to answer a customer question.',
    'lookup',
    [
      ['hubspot', 'contacts.email'],
      ['hubspot', 'contacts.phone'],
    ],
  ],
  [
    'crm.deal_update',
    'Update a deal',
    'Change the stage or amount of a HubSpot deal.',
    'write',
    [
      ['hubspot', 'deals.stage'],
      ['hubspot', 'deals.amount'],
    ],
  ],
  [
    'support.ticket_lookup',
    'Look up a support ticket',
    'Read a Zendesk ticket and its comments.',
    'lookup',
    [
      ['zendesk', 'tickets.subject'],
      ['zendesk', 'tickets.comments'],
    ],
  ],
  ['support.ticket_reply', 'Reply to a ticket', 'Post a public reply on a Zendesk ticket.', 'write', [['zendesk', 'tickets.comments']]],
  [
    'billing.invoice_lookup',
    'Look up invoices',
    'List or read Stripe invoices of a customer.',
    'lookup',
    [
      ['stripe', 'invoices.amount_due'],
      ['stripe', 'invoices.status'],
    ],
  ],
  [
    'billing.revenue_report',
    'Revenue report',
    'Summarise monthly recurring revenue from Stripe subscriptions.',
    'reporting',
    [['stripe', 'subscriptions.plan']],
  ],
  [
    'eng.issue_lookup',
    'Look up an issue',
    'Read a Jira issue: status, assignee, description.',
    'lookup',
    [
      ['jira', 'issues.status'],
      ['jira', 'issues.assignee'],
    ],
  ],
  ['eng.pr_review', 'Review a pull request', 'Read a GitHub pull request and its diff to review it.', 'analysis', [['github', 'pulls.diff']]],
  [
    'hr.employee_lookup',
    'Look up an employee',
    'Read an employee record (title, manager) from Workday.',
    'lookup',
    [
      ['workday', 'employees.title'],
      ['workday', 'employees.manager'],
    ],
  ],
  [
    'data.customer_export',
    'Export customers',
    'Bulk export the customer table from Snowflake to CSV.',
    'export',
    [
      ['snowflake', 'customers.email'],
      ['snowflake', 'customers.country'],
    ],
  ],
  ['chat.send_message', 'Send a Slack message', 'Post a message to a Slack channel.', 'write', [['slack', 'messages.text']]],
  ['calendar.event_lookup', 'Look up calendar events', 'Read Google Calendar events of a user.', 'lookup', [['gcal', 'events.start']]],
];

/**
 * The tools the operator bound to the intentions the calls target (DESIGN 6.15: only a certain
 * match is allowed, and a binding is how an operator makes a tool certain). The other intentions
 * are left to the classifier.
 */
const EVALUATE_BINDINGS = {
  'crm.contact_lookup': ['hubspot.get_contact'],
  'crm.deal_update': ['hubspot.update_deal'],
  'support.ticket_lookup': ['zendesk_get_ticket'],
  'billing.invoice_lookup': ['stripe.list_invoices'],
  'eng.issue_lookup': ['jira.getIssue'],
  'hr.employee_lookup': ['workday_get_employee'],
  'chat.send_message': ['slack.post_message'],
};

/** The calls of the evaluate scenario, in rotation: mostly covered, some ambient, some with fields. */
const EVALUATE_CALLS = [
  { tool_call: { name: 'hubspot.get_contact', arguments: { email: 'ada@example.com', fields: ['email'] } }, user_id: 'u_1', session_id: 's_1' },
  {
    tool_call: { name: 'zendesk_get_ticket', arguments: { ticket_id: 4521 } },
    conversation_context: [{ role: 'user', content: 'What did the customer say in ticket 4521?' }],
  },
  { tool_call: { name: 'stripe.list_invoices', arguments: { customer: 'cus_Nf82kd0', status: 'open' } }, user_id: 'u_2' },
  { tool_call: { name: 'jira.getIssue', arguments: { key: 'ENG-1234', fields: 'status, assignee' } } },
  { tool_call: { name: 'workday_get_employee', arguments: { employee_id: 'E-77' } }, user_id: 'u_3', session_id: 's_3' },
  { tool_call: { name: 'slack.post_message', arguments: { channel: '#support', text: 'Ticket resolved' } } },
  { tool_call: { name: 'weather.get_forecast', arguments: { city: 'Berlin' } } },
  { tool_call: { name: 'hubspot.update_deal', arguments: { deal_id: 'D-9', stage: 'closedwon' } }, user_id: 'u_1' },
];

/**
 * DESIGN 7: the evaluate scenario runs against 100 active intentions. The 12 above are the ones the
 * calls target; the other 88 are generated the way a real catalogue grows (same sources, other
 * objects and purposes), so the calls have realistic competition in the index.
 */
const EVALUATE_ACTIVE = 100;
function fillerIntentions(count) {
  const sources = ['salesforce', 'netsuite', 'greenhouse', 'okta', 'datadog', 'pagerduty', 'confluence', 'notion', 'asana', 'shopify', 'intercom', 'gusto'];
  const objects = [
    'accounts',
    'opportunities',
    'vendors',
    'purchase orders',
    'candidates',
    'interviews',
    'users',
    'groups',
    'monitors',
    'incidents',
    'pages',
    'tasks',
    'orders',
    'conversations',
    'payroll runs',
    'benefits',
  ];
  const purposes = [
    ['lookup', 'Look up', 'Read one record to answer a question from a colleague.'],
    ['report', 'Report on', 'Summarise weekly figures for the leadership review.'],
    ['export', 'Export', 'Bulk export records to CSV for an audit.'],
    ['update', 'Update', 'Change fields on a record after a customer request.'],
  ];
  const classes = { lookup: 'lookup', report: 'reporting', export: 'export', update: 'write' };
  const out = [];
  for (let i = 0; out.length < count; i++) {
    const source = sources[i % sources.length];
    const object = objects[(i * 7) % objects.length];
    const [verb, display, why] = purposes[(i * 3) % purposes.length];
    const slug = object.replace(/ /g, '_');
    out.push([
      `${source}.${slug}_${verb}.${i}`,
      `${display} ${object} in ${source}`,
      `${display} ${object} in ${source}. ${why}`,
      classes[verb],
      [
        [source, `${slug}.name`],
        [source, `${slug}.owner`],
      ],
    ]);
  }
  return out;
}

/** `active`: published intentions in the org (the evaluate scenario of DESIGN 7 has 100). */
const evaluateScenario = (name, connections, { active = EVALUATE_ACTIVE, ...extra } = {}) => ({
  name,
  connections,
  warmupS: 3,
  durationS: 10,
  async setup(ctx) {
    const intentions = [...EVALUATE_INTENTIONS, ...fillerIntentions(active - EVALUATE_INTENTIONS.length)];
    // A few at a time: a catalogue of 1,000 is set up in seconds, not minutes.
    for (let i = 0; i < intentions.length; i += 8) {
      await Promise.all(
        intentions.slice(i, i + 8).map(async ([label, display_name, description, intent_class, elements]) => {
          const created = await ctx.api(
            'POST',
            '/v1/intentions',
            {
              label,
              display_name,
              description,
              intent_class,
              data_elements: elements.map(([data_source_id, path]) => ({ data_source_id, path })),
              ...(EVALUATE_BINDINGS[label] ? { tools: EVALUATE_BINDINGS[label] } : {}),
            },
            201,
          );
          await ctx.api('POST', `/v1/intentions/${created.id}/publish`, undefined, 200);
        }),
      );
    }
    const outcomes = [];
    for (const call of EVALUATE_CALLS) outcomes.push(JSON.parse(await ctx.api('POST', '/v1/intent/evaluate', call, 200, { raw: true })).outcome);
    if (!outcomes.includes('allowed') || !outcomes.includes('denied')) throw new Error(`evaluate: unexpected outcomes in setup: ${outcomes.join(', ')}`);
    return {
      calls: EVALUATE_CALLS,
      note: `POST /v1/intent/evaluate over ${active} published intentions, ${EVALUATE_CALLS.length} calls in rotation (outcomes ${outcomes.join('/')}); every answer waits for its intent event to commit (group commit)${extra.rate ? `; evenly paced at ${extra.rate}/s` : ''}`,
    };
  },
  op: (http, params, it) => http.post('/v1/intent/evaluate', params.calls[it.seq % params.calls.length]),
  ...extra,
});

scenarios.push(evaluateScenario('evaluate', 50));
// Issue 13's target catalogue, in an org of its own (the labels of the 100 above would collide).
scenarios.push(evaluateScenario('evaluate-1000', 50, { active: 1000, ownOrg: true }));

const BENCH_CARD = {
  id: 'bench-crm',
  name: 'Bench CRM assistant',
  allowed_scope: { operations: ['crm.contacts.read', 'crm.contacts.search'], resources: ['crm://contacts/*'], forbidden_operations: ['crm.contacts.delete'] },
  audiences: ['crm-api'],
  max_ttl_seconds: 3600,
};

scenarios.push(
  {
    name: 'dispense',
    connections: 16,
    warmupS: 2,
    durationS: 10,
    note: 'POST /v1/mandate/dispense: card lookup, scope check, RS256 signature (2048-bit), the mandate and its outbox row stored before the answer',
    async setup(ctx) {
      await ctx.api('POST', '/v1/intent-cards', BENCH_CARD, 201);
      return {};
    },
    op: (http, _params, it) =>
      http.post('/v1/mandate/dispense', {
        actor: `agent:${it.loop}`,
        intent_id: BENCH_CARD.id,
        prompt_id: `prm_${it.seq}`,
        requested_scope: { operations: ['crm.contacts.read'], resources: ['crm://contacts/*'] },
        audience: 'crm-api',
      }),
  },
  {
    name: 'jwks',
    connections: 50,
    warmupS: 2,
    durationS: 10,
    note: 'GET /v1/mandate/jwks (public, Cache-Control max-age=60, ETag): what every verifier polls',
    op: (http) => http.get('/v1/mandate/jwks'),
  },
  {
    name: 'grants-verify',
    connections: 50,
    warmupS: 2,
    durationS: 10,
    note: 'POST /v1/grants/verify of a grant issued by evaluate (signature checked once, then claims, org and expiry on every call)',
    async setup(ctx) {
      const created = await ctx.api(
        'POST',
        '/v1/intentions',
        {
          label: 'bench.verify.lookup',
          display_name: 'Look up a contact',
          description: 'Read a HubSpot contact.',
          intent_class: 'lookup',
          // Its own tool: the evaluate scenario's org binds hubspot.get_contact to another intention.
          tools: ['bench_verify.get_contact'],
        },
        201,
      );
      await ctx.api('POST', `/v1/intentions/${created.id}/publish`, undefined, 200);
      const evaluated = await ctx.api(
        'POST',
        '/v1/intent/evaluate',
        { tool_call: { name: 'bench_verify.get_contact', arguments: { email: 'ada@example.com' } } },
        200,
      );
      if (!evaluated.grant) throw new Error(`grants-verify: evaluate gave no grant (${evaluated.outcome})`);
      return { token: evaluated.grant };
    },
    op: (http, params) => http.post('/v1/grants/verify', { token: params.token }),
  },
);

/**
 * The mandate path (DESIGN 6.9): POST /v1/mcp-proxy/call under a mandate for a card of 20 rules of
 * which none matches the call (proxy-card.mjs), so every call evaluates all 20 conditions and ends
 * in `allow` (200, no rule_id). Setup installs the card, dispenses one mandate (ttl 3600 s) and
 * checks the live answers: the benchmark call → allow without rule_id, and the probe of the last
 * rule → 403 deny decided by that rule (so all 20 rules are in force, in order).
 */
const mcpProxyScenario = (name, extra = {}) => ({
  name,
  connections: 50,
  warmupS: 2,
  durationS: 10,
  peers: true,
  async setup(ctx) {
    await ctx.api('POST', '/v1/intent-cards', PROXY_CARD); // 201 installed, 200 replaced (the second scenario re-installs it)
    const dispensed = await until404Ends(() => ctx.api('POST', '/v1/mandate/dispense', PROXY_DISPENSE, 200), 'dispense');
    const mandate = dispensed?.credential;
    if (typeof mandate !== 'string' || mandate.split('.').length !== 3) throw new Error(`${name}: dispense returned no credential JWT`);
    return {
      mandate,
      body: BENCH_CALL,
      note:
        `POST /v1/mcp-proxy/call (X-Service-Mandate, RS256) on card ${PROXY_CARD.id}: ${PROXY_RULES.length} CEL rules, none matching, so all are evaluated before the allow (worst case of first match wins)` +
        (extra.rate ? `; evenly paced at ${extra.rate}/s` : ''),
    };
  },
  // Separate from setup so that the peers are still measured (with setup's mandate) when the
  // endpoint fails here.
  async check(ctx, params) {
    const headers = { 'x-service-mandate': params.mandate };
    const allowed = await until404Ends(() => ctx.api('POST', '/v1/mcp-proxy/call', BENCH_CALL, 200, { headers }), 'benchmark call');
    if (allowed?.decision?.kind !== 'allow' || allowed.decision.rule_id != null) {
      throw new Error(`${name}: the benchmark call must be a plain allow with no rule_id, got ${JSON.stringify(allowed?.decision)}`);
    }
    const probe = JSON.parse(await ctx.api('POST', '/v1/mcp-proxy/call', probeCall(SETUP_PROBE_RULE).call, 403, { headers, raw: true }));
    if (probe?.decision?.kind !== 'deny' || probe.decision.rule_id !== SETUP_PROBE_RULE) {
      throw new Error(`${name}: the probe of rule ${SETUP_PROBE_RULE} must be denied by it, got ${JSON.stringify(probe?.decision)}`);
    }
  },
  headers: (params) => ({ 'x-service-mandate': params.mandate }),
  // Serialised once per loader (JSON.stringify per op would be loader CPU on the same 2 cores).
  op: (http, params) => http.post('/v1/mcp-proxy/call', (params.json ??= JSON.stringify(params.body)), { status: 200 }),
  ...extra,
});

scenarios.push(
  mcpProxyScenario('mcp-proxy-call'),
  mcpProxyScenario('mcp-proxy-call-paced', { rate: 2000 }),
  mcpProxyScenario('mcp-proxy-call-paced-500', { rate: 500, peers: false }),
);

// Custom (run(ctx)): deliveries per second and delay of webhooks to a local receiver, in a fresh org.
scenarios.push(webhookDeliveryScenario);

// Custom (run(ctx)): an MCP tools/call through the gateway's /mcp/{name} against the same SDK
// clients calling the upstream directly, in the same run (overhead per call).
scenarios.push(mcpToolsCallScenario);

// Custom (run(ctx)): 10,000 kept calls re-decided against a one-intention change (what-if replay).
scenarios.push(replay10kScenario);

// Custom (run(ctx)): GET /v1/stats over a week of 1 million counted calls (both modes).
scenarios.push(stats1mScenario);

export function findScenario(name) {
  const s = scenarios.find((x) => x.name === name);
  if (!s) throw new Error(`unknown scenario '${name}' (known: ${scenarios.map((x) => x.name).join(', ')})`);
  return s;
}
