import { spawn } from 'node:child_process';
import { mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT, cardBody, client, crmCard, dispenseMandate, installCard, mintKey, startEmbeddedSystem, type Client, type TestSystem } from '@igw/testing';

const BIN = join(REPO_ROOT, 'apps/cli/bin/igw.js');

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  json: any;
}

/** `igw args…` as a child process; `json` is stdout parsed when it is JSON. */
function igw(args: string[], env: Record<string, string>): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: REPO_ROOT, env: { PATH: process.env.PATH ?? '', HOME: tmpdir(), ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.once('error', reject);
    child.once('exit', (code) => {
      let json: unknown;
      try {
        json = JSON.parse(stdout);
      } catch {
        json = undefined;
      }
      resolve({ code, stdout, stderr, json });
    });
  });
}

/**
 * The `igw` CLI as a user runs it (a child process through its bin shim) against a real embedded
 * system: every command, --json output parsed, and the documented exit codes.
 */
describe('igw CLI (embedded)', () => {
  let sys: TestSystem;
  let admin: Client;
  let env: Record<string, string>;
  const card = cardBody(
    'cli-crm',
    'CLI CRM assistant',
    { operations: ['crm.contacts.read'], resources: ['crm://contacts/*'], forbidden_operations: ['crm.contacts.delete'] },
    600,
  );
  const dir = mkdtempSync(join(tmpdir(), 'igw-cli-e2e-'));

  beforeAll(async () => {
    sys = await startEmbeddedSystem();
    admin = client(sys.url, sys.adminKey);
    env = { IGW_CONFIG: join(dir, 'igw', 'config.json') };
    const login = await igw(['login', '--url', sys.url, '--key', sys.adminKey], env);
    expect(login).toMatchObject({ code: 0 });
  });

  afterAll(async () => {
    await sys?.stop();
  });

  it('login stores the URL and key owner-only; IGW_URL / IGW_API_KEY override it (401 → exit 3)', async () => {
    expect(statSync(env.IGW_CONFIG!).mode & 0o777).toBe(0o600);
    const bad = await igw(['intentions', 'list', '--json'], { ...env, IGW_API_KEY: 'igw_not_a_key' });
    expect(bad.code).toBe(3);
    expect(bad.json).toMatchObject({ error: { status: 401, code: expect.any(String), message: expect.any(String) } });
    const human = await igw(['intentions', 'list'], { ...env, IGW_API_KEY: 'igw_not_a_key' });
    expect(human.code).toBe(3);
    expect(human.stderr).toMatch(/^igw: 401 /);
  });

  it('intentions create, publish, archive and list; a duplicate label exits 4; a read-only key exits 3 (403)', async () => {
    const created = await igw(
      [
        'intentions',
        'create',
        '--label',
        'cli.crm_lookup',
        '--intent-class',
        'lookup',
        '--display-name',
        'CRM lookup',
        '--description',
        'Look up CRM contacts',
        '--json',
      ],
      env,
    );
    expect(created.code).toBe(0);
    expect(created.json).toMatchObject({ id: expect.stringMatching(/^int_/), label: 'cli.crm_lookup', status: 'draft' });
    const id = created.json.id as string;
    const dup = await igw(['intentions', 'create', '--label', 'cli.crm_lookup', '--intent-class', 'lookup', '--json'], env);
    expect(dup.code).toBe(4);
    expect(dup.json.error).toMatchObject({ status: 409, code: 'label_conflict' });
    expect((await igw(['intentions', 'publish', id, '--json'], env)).json).toMatchObject({ id, status: 'active' });
    const listed = await igw(['intentions', 'list', '--status', 'active', '--json'], env);
    expect(listed.json.data.map((i: { id: string }) => i.id)).toContain(id);
    const table = await igw(['intentions', 'list'], env);
    expect(table.stdout).toMatch(/^ID\s+LABEL\s+STATUS/);
    expect(table.stdout).toContain('cli.crm_lookup');

    const reader = await mintKey(admin, 'cli-reader', 'read_only');
    const forbidden = await igw(['intentions', 'create', '--label', 'cli.nope', '--intent-class', 'lookup', '--json'], { ...env, IGW_API_KEY: reader });
    expect(forbidden.code).toBe(3);
    expect(forbidden.json.error).toMatchObject({ status: 403, code: 'insufficient_scope' });

    const other = await igw(['intentions', 'create', '--label', 'cli.archived', '--intent-class', 'other', '--json'], env);
    expect((await igw(['intentions', 'archive', other.json.id, '--json'], env)).json).toMatchObject({ status: 'archived' });
    expect((await igw(['intentions', 'publish', 'int_00000000000000000000000000000000'], env)).code).toBe(2);
  });

  it('evaluate prints the outcome and grant (exit 0), pending approval exits 8; approvals list, approve and deny', async () => {
    const ok = await igw(['evaluate', '--tool', 'cli.crm_lookup_contact', '--args', '{"q":"ada"}', '--json'], env);
    expect(ok.code).toBe(0);
    expect(ok.json).toMatchObject({ outcome: 'allowed', intent_label: 'cli.crm_lookup', grant: expect.any(String) });

    const refund = await admin.post('/v1/intentions', {
      label: 'billing.refund_issue',
      display_name: 'Issue a refund',
      description: 'Refund a Stripe charge for a customer.',
      intent_class: 'write',
      approval_required: true,
    });
    await admin.post(`/v1/intentions/${refund.body.id}/publish`);
    // The key that asked cannot decide its own approval: an agent's key evaluates.
    const agent = { ...env, IGW_API_KEY: await mintKey(admin, 'cli-agent', 'policy_write') };
    const ids: string[] = [];
    for (const charge of ['ch_1', 'ch_2']) {
      const pending = await igw(['evaluate', '--tool', 'stripe.create_refund', '--args', JSON.stringify({ charge, amount: 5 }), '--json'], agent);
      expect(pending.code).toBe(8);
      expect(pending.json).toMatchObject({ outcome: 'pending_approval', approval_request_id: expect.stringMatching(/^apr_/) });
      ids.push(pending.json.approval_request_id);
    }
    const listed = await igw(['approvals', 'list', '--status', 'pending', '--json'], env);
    expect(listed.code).toBe(0);
    expect(listed.json.data.map((a: { id: string }) => a.id)).toEqual(expect.arrayContaining(ids));
    expect((await igw(['approvals', 'approve', ids[0]!, '--json'], env)).json).toMatchObject({ id: ids[0], status: 'approved' });
    expect((await igw(['approvals', 'deny', ids[1]!, '--reason', 'not today', '--json'], env)).json).toMatchObject({ id: ids[1], status: 'denied' });
    expect((await igw(['approvals', 'approve', 'apr_00000000000000000000000000000000'], env)).code).toBe(2);
    expect((await igw(['approvals', 'approve', ids[1]!, '--json'], env)).code).toBe(4);
  });

  it('teaching: intentions create --tools / update, examples add / list / rm, approvals approve --remember (a like call is then certain)', async () => {
    // Its own org, so nothing taught here meets the other tests' intentions.
    const org = await client(sys.url, sys.platformKey).post('/v1/orgs', { name: 'cli-teaching' });
    const operator = { ...env, IGW_API_KEY: org.body.api_key.key as string };
    const agent = { ...env, IGW_API_KEY: await mintKey(client(sys.url, org.body.api_key.key), 'cli-teach-agent', 'read_only') };
    const publish = async (args: string[]) => {
      const created = await igw(['intentions', 'create', '--intent-class', 'lookup', ...args, '--json'], operator);
      expect(created.code).toBe(0);
      expect((await igw(['intentions', 'publish', created.json.id, '--json'], operator)).code).toBe(0);
      return created.json as { id: string; tools: string[] };
    };
    const ledger = await publish([
      '--label',
      'finance.ledger_lookup',
      '--description',
      'Read general ledger entries and balances to answer a finance question.',
    ]);
    const payouts = await publish([
      '--label',
      'finance.payout_review',
      '--description',
      'Read Stripe payouts and their status to reconcile the bank account.',
      '--tools',
      'stripe.list_payouts,stripe.get_payout',
    ]);
    expect(payouts.tools).toEqual(['stripe.list_payouts', 'stripe.get_payout']);
    const updated = await igw(['intentions', 'update', payouts.id, '--tools', 'stripe.*_payout*', '--approval-required', 'false', '--json'], operator);
    expect(updated.json).toMatchObject({ id: payouts.id, tools: ['stripe.*_payout*'], approval_required: false, version: 3 });
    expect((await igw(['intentions', 'update', payouts.id, '--tools', 'not ok', '--json'], operator)).json.error).toMatchObject({
      status: 400,
      details: [expect.objectContaining({ path: 'tools[0]' })],
    });

    // A manual negative example: listed, then removed.
    const negative = await igw(
      ['examples', 'add', ledger.id, '--tool', 'erp.delete_ledger_entry', '--args', '{"entry_id":"LE-9"}', '--not-covered', '--json'],
      operator,
    );
    expect(negative).toMatchObject({ code: 0, json: { id: expect.stringMatching(/^iex_/), covered: false, source: 'manual' } });
    const table = await igw(['examples', 'list', ledger.id], operator);
    expect(table.stdout).toMatch(/^ID\s+COVERED\s+SOURCE\s+TOOL/);
    expect(table.stdout).toContain('erp.delete_ledger_entry');
    expect((await igw(['examples', 'rm', ledger.id, negative.json.id], operator)).code).toBe(0);
    expect((await igw(['examples', 'list', ledger.id, '--json'], operator)).json.data).toEqual([]);

    // An uncertain call waits for a human; approved with --remember, a like call is allowed by example.
    const call = (entry: string) => ['evaluate', '--tool', 'erp.fetch_ledger_entry', '--args', JSON.stringify({ entry_id: entry }), '--json'];
    const pending = await igw(call('LE-1'), agent);
    expect(pending).toMatchObject({ code: 8, json: { outcome: 'pending_approval', reason: 'uncertain_match', intent_label: 'finance.ledger_lookup' } });
    const approved = await igw(['approvals', 'approve', pending.json.approval_request_id, '--remember', '--reason', 'a ledger read', '--json'], operator);
    expect(approved).toMatchObject({ code: 0, json: { status: 'approved', reason: 'a ledger read' } });
    const taught = await igw(['examples', 'list', ledger.id, '--json'], operator);
    expect(taught.json.data).toEqual([
      expect.objectContaining({ covered: true, source: 'approval', tool_call: { name: 'erp.fetch_ledger_entry', arguments: { entry_id: 'LE-1' } } }),
    ]);
    const like = await igw(call('LE-2'), agent);
    expect(like).toMatchObject({
      code: 0,
      json: { outcome: 'allowed', intent_label: 'finance.ledger_lookup', classification_evidence: { classification_method: 'example', certain: true } },
    });

    // An argument key the example lacks: not like it, a question again; deny --remember teaches a negative example.
    const other = await igw(['evaluate', '--tool', 'erp.fetch_ledger_entry', '--args', '{"entry_id":"LE-3","include_drafts":true}', '--json'], agent);
    expect(other).toMatchObject({ code: 8, json: { outcome: 'pending_approval', reason: 'uncertain_match', intent_label: 'finance.ledger_lookup' } });
    expect((await igw(['approvals', 'deny', other.json.approval_request_id, '--remember', '--json'], operator)).json).toMatchObject({ status: 'denied' });
    const examples = await igw(['examples', 'list', ledger.id, '--json'], operator);
    expect(examples.json.data).toContainEqual(
      expect.objectContaining({
        covered: false,
        source: 'approval',
        tool_call: { name: 'erp.fetch_ledger_entry', arguments: { entry_id: 'LE-3', include_drafts: true } },
      }),
    );
  });

  it('cards apply, mandate dispense / inspect / refresh / revoke, and call (allow 0, deny 8, revoked 3, cooldown 5)', async () => {
    const file = join(dir, 'card.json');
    writeFileSync(file, JSON.stringify(card));
    const applied = await igw(['cards', 'apply', '-f', file, '--json'], env);
    expect(applied).toMatchObject({ code: 0, json: { id: card.id, version: 1 } });
    expect((await igw(['cards', 'apply', '-f', file, '--json'], env)).json).toMatchObject({ id: card.id, version: 2 });
    expect((await igw(['cards', 'list', '--json'], env)).json.data.map((c: { id: string }) => c.id)).toContain(card.id);

    const args = [
      '--intent-id',
      card.id,
      '--actor',
      'agent:cli',
      '--audience',
      'crm-api',
      '--operations',
      'crm.contacts.read',
      '--resources',
      'crm://contacts/*',
    ];
    const m = await igw(['mandate', 'dispense', ...args, '--ttl', '60', '--json'], env);
    expect(m.code).toBe(0);
    expect(m.json).toMatchObject({ credential: expect.any(String), cred_id: expect.stringMatching(/^cred_/), ttl_seconds: 60 });
    const token = (await igw(['mandate', 'dispense', ...args, '--credential-only'], env)).stdout.trim();
    expect(token.split('.')).toHaveLength(3);
    expect((await igw(['mandate', 'inspect', m.json.cred_id, '--json'], env)).json).toMatchObject({
      cred_id: m.json.cred_id,
      status: 'active',
      actor: 'agent:cli',
    });
    expect((await igw(['mandate', 'inspect', 'cred_nope'], env)).code).toBe(2);

    const allow = await igw(['call', '--mandate', m.json.credential, '--operation', 'crm.contacts.read', '--target', 'crm://contacts/42', '--json'], env);
    expect(allow).toMatchObject({ code: 0, json: { status: 200, decision: { kind: 'allow' }, mandate: { cred_id: m.json.cred_id } } });
    writeFileSync(join(dir, 'mandate.jwt'), token);
    const deny = await igw(
      ['call', '--mandate', `@${join(dir, 'mandate.jwt')}`, '--operation', 'crm.contacts.delete', '--target', 'crm://contacts/42', '--json'],
      env,
    );
    expect(deny).toMatchObject({ code: 8, json: { status: 403, decision: { kind: 'deny' } } });
    // Each decision is listed on its own mandate; --kind filters.
    const listed = async (credId: string, ...more: string[]) => {
      for (let i = 0; ; i++) {
        const res = await igw(['decisions', '--mandate', credId, ...more, '--json'], env);
        if (res.json.data.length > 0 || i >= 50) return res.json.data.map((d: { decision: { decision_id: string } }) => d.decision.decision_id);
        await new Promise((r) => setTimeout(r, 100));
      }
    };
    expect(await listed(allow.json.mandate.cred_id)).toEqual([allow.json.decision.decision_id]);
    expect(await listed(deny.json.mandate.cred_id, '--kind', 'deny')).toEqual([deny.json.decision.decision_id]);
    expect((await igw(['decisions', '--mandate', allow.json.mandate.cred_id, '--kind', 'deny', '--json'], env)).json.data).toEqual([]);
    expect((await igw(['decisions', '--kind', 'maybe'], env)).code).toBe(6);
    // --with-call: the call each decision decided, as sent.
    const kept = await igw(['decisions', '--mandate', allow.json.mandate.cred_id, '--with-call', '--json'], env);
    expect(kept.json.data[0].call.action).toMatchObject({ operation: 'crm.contacts.read', target_resource: 'crm://contacts/42' });
    expect((await igw(['decisions', '--mandate', allow.json.mandate.cred_id, '--with-call'], env)).stdout.split('\n')[0]).toMatch(/ARGUMENTS/);

    expect((await igw(['mandate', 'refresh', m.json.cred_id, '--ttl', '120', '--json'], env)).json).toMatchObject({
      cred_id: m.json.cred_id,
      ttl_seconds: 120,
    });
    const cooldown = await igw(['mandate', 'refresh', m.json.cred_id, '--json'], env);
    expect(cooldown.code).toBe(5);
    expect(cooldown.json.error).toMatchObject({ status: 429, code: 'cooldown' });
    expect((await igw(['mandate', 'revoke', m.json.cred_id, '--reason', 'done', '--json'], env)).json).toMatchObject({ status: 'revoked' });
    const revoked = await igw(['call', '--mandate', m.json.credential, '--operation', 'crm.contacts.read', '--json'], env);
    expect(revoked.code).toBe(3);
    expect(revoked.json.error).toMatchObject({ status: 401, code: 'mandate_invalid' });
  });

  it('mcp-servers add, list and rm (by name); removing again exits 2', async () => {
    const added = await igw(
      ['mcp-servers', 'add', '--name', 'files', '--url', 'http://127.0.0.1:9/mcp', '--header', 'authorization: Bearer up', '--json'],
      env,
    );
    expect(added).toMatchObject({ code: 0, json: { name: 'files', header_names: ['authorization'] } });
    expect((await igw(['mcp-servers', 'list', '--json'], env)).json.data.map((s: { name: string }) => s.name)).toEqual(['files']);
    expect((await igw(['mcp-servers', 'list'], env)).stdout).toContain('files');
    expect((await igw(['mcp-servers', 'rm', 'files'], env)).code).toBe(0);
    expect((await igw(['mcp-servers', 'rm', added.json.id], env)).code).toBe(2);
  });

  it('history lists events; --follow prints new ones as they happen (progress on stderr) until interrupted', async () => {
    const listed = await igw(['history', '--limit', '5', '--json'], env);
    expect(listed.code).toBe(0);
    expect(listed.json.data.length).toBeGreaterThan(0);
    expect(listed.json.data[0]).not.toHaveProperty('call');
    // --with-call: the call each evaluation decided, as sent.
    const withCall = await igw(['history', '--limit', '5', '--with-call', '--json'], env);
    expect(withCall.json.data[0].call.tool_call.name).toBe(withCall.json.data[0].tool_name);
    const shown = await igw(['history', '--limit', '1', '--with-call'], env);
    expect(shown.stdout.split('\n')[0]).toMatch(/ARGUMENTS/);
    expect(
      (await igw(['history', '--outcome', 'pending_approval', '--json'], env)).json.data.every((e: { outcome: string }) => e.outcome === 'pending_approval'),
    ).toBe(true);

    const child = spawn(process.execPath, [BIN, 'history', '--follow', '--json', '--limit', '1', '--interval', '100'], {
      cwd: REPO_ROOT,
      env: { PATH: process.env.PATH ?? '', HOME: tmpdir(), ...env },
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
    const until = async (what: () => boolean) => {
      while (!what()) {
        if (child.exitCode !== null) throw new Error(`igw history --follow exited ${child.exitCode}: ${err}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    };
    await until(() => err.includes('following'));
    const fresh = await admin.post('/v1/intent/evaluate', { tool_call: { name: 'cli.crm_lookup_contact', arguments: { q: 'grace' } } });
    await until(() => out.includes(fresh.body.intent_event_id));
    child.kill('SIGINT');
    expect(await exited).toBe(0);
    const lines = out
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.at(-1)).toMatchObject({ id: fresh.body.intent_event_id, outcome: 'allowed' });
    expect(new Set(lines.map((l) => l.id)).size).toBe(lines.length);
  });

  it('the gateway rate limit (429) exits 5 for a POST, which is never retried', async () => {
    // A tenant limited to one request per second, no burst.
    const org = await client(sys.url, sys.platformKey).post('/v1/orgs', { name: 'cli-limited', rate_limit: { requests_per_second: 1, burst: 1 } });
    expect(org.status).toBe(201);
    const key = org.body.api_key.key as string;
    const limited = { ...env, IGW_API_KEY: key };
    let last: Run | undefined;
    // The window is one second: spend it, then ask at once (again if the CLI started too slowly).
    for (let i = 0; i < 5 && last?.code !== 5; i++) {
      while ((await client(sys.url, key).get('/v1/intentions')).status !== 429);
      last = await igw(['evaluate', '--tool', 'cli.crm_lookup_contact', '--json'], limited);
    }
    expect(last?.code).toBe(5);
    expect(last?.json.error).toMatchObject({ status: 429 });
    expect(last?.stderr).not.toContain('retrying');
  });

  it('replay shows what a draft would change: exit 0 when nothing would, 9 when something would; errors keep their codes', async () => {
    const created = await admin.post('/v1/intentions', { label: 'cli.replay_bound', intent_class: 'lookup', tools: ['cli.replay_tool'] });
    expect(created.status).toBe(201);
    expect((await admin.post(`/v1/intentions/${created.body.id}/publish`)).status).toBe(200);
    const live = await admin.post('/v1/intent/evaluate', { tool_call: { name: 'cli.replay_tool', arguments: { n: 1 } } });
    expect(live.body.outcome).toBe('allowed');

    const none = join(dir, 'no-change.json');
    writeFileSync(none, JSON.stringify({ changes: [] }));
    const quiet = await igw(['replay', '--intention-file', none, '--since', '1h'], env);
    expect(quiet.code).toBe(0);
    expect(quiet.stdout).toMatch(/^replayed \d+ calls; 0 would change/);

    const archive = join(dir, 'archive.json');
    writeFileSync(archive, JSON.stringify([{ action: 'archive', id: created.body.id }]));
    const changed = await igw(['replay', '--intention-file', archive, '--since', '1h', '--json'], env);
    expect(changed.code).toBe(9);
    expect(changed.json.transitions).toContainEqual(expect.objectContaining({ from: 'allowed', to: 'denied' }));
    expect(changed.json.calls).toContainEqual(
      expect.objectContaining({ id: live.body.intent_event_id, after: { outcome: 'denied', intent_label: 'ambient' } }),
    );
    const table = await igw(['replay', '--intention-file', archive], env);
    expect([table.code, table.stdout]).toEqual([9, expect.stringContaining('cli.replay_tool')]);

    expect((await igw(['replay', '--intention-file', join(dir, 'missing.json')], env)).code).toBe(1);
    const tooMany = await igw(['replay', '--intention-file', none, '--limit', '10001', '--json'], env);
    expect([tooMany.code, tooMany.json.error.status]).toEqual([6, 400]);
    const reader = await mintKey(admin, 'cli-replay-reader', 'read_only');
    expect((await igw(['replay', '--intention-file', none], { ...env, IGW_API_KEY: reader })).code).toBe(3);
  });

  it('replay --card-file re-decides mandate-path calls: exit 0 for the installed card, 9 for a narrower draft', async () => {
    await installCard(admin, crmCard('cli-replay-card', 'CLI replay card'));
    const mandate = await dispenseMandate(admin, { intentId: 'cli-replay-card', actor: 'agent:cli' });
    const call = await admin.post(
      '/v1/mcp-proxy/call',
      {
        action: { surface: 'sdk', operation: 'crm.contacts.update', target_resource: 'crm://contacts/1' },
        context: { actor: 'agent:cli' },
        audience: 'crm-api',
      },
      { 'x-service-mandate': mandate.credential },
    );
    expect(call.body.decision.kind).toBe('allow');

    const same = join(dir, 'card-same.json');
    writeFileSync(same, JSON.stringify(crmCard('cli-replay-card', 'CLI replay card')));
    expect((await igw(['replay', '--card-file', same, '--since', '1h'], env)).code).toBe(0);
    const narrower = join(dir, 'card-narrower.json');
    writeFileSync(
      narrower,
      JSON.stringify({ ...crmCard('cli-replay-card', 'CLI replay card'), allowed_scope: { operations: ['crm.contacts.read'], resources: ['crm://**'] } }),
    );
    const changed = await igw(['replay', '--card-file', narrower, '--since', '24h', '--json'], env);
    expect(changed.code).toBe(9);
    expect(changed.json.calls).toContainEqual({
      id: call.body.decision.decision_id,
      tool_name: 'crm.contacts.update',
      before: { kind: 'allow' },
      after: { kind: 'deny' },
    });
    expect((await igw(['replay', '--card-file', narrower, '--intention-file', narrower], env)).code).toBe(1);
  });

  it('usage errors exit 1; --help works from the TypeScript source too (no build needed)', async () => {
    expect((await igw(['intentions', 'frobnicate'], env)).code).toBe(1);
    expect((await igw(['evaluate', '--tool', 't', '--args', 'not json'], env)).code).toBe(1);
    const help = await igw(['--help'], { ...env, IGW_CLI_FROM_SOURCE: '1' });
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Exit codes');
    expect(help.stdout).toContain('mcp-servers');
  });
});
