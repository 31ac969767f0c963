import { run } from '../main';
import { fakeGateway as harness } from '../testing/fake-gateway';

const INTENTION = {
  id: 'int_1',
  label: 'finance.ledger_lookup',
  display_name: 'Ledger',
  description: 'Read ledger entries.',
  intent_class: 'lookup',
  status: 'active',
  approval_required: false,
  ttl_minutes: 15,
  data_elements: [],
  tools: ['erp.fetch_ledger_*'],
  version: 2,
  created_at: '2026-11-27T10:00:00.000Z',
  updated_at: '2026-11-27T10:00:00.000Z',
};
const EXAMPLE = {
  id: 'iex_1',
  intention_id: 'int_1',
  tool_call: { name: 'erp.fetch_ledger_entry', arguments: { entry_id: 'LE-1' } },
  covered: true,
  source: 'approval',
  approval_id: 'apr_1',
  created_at: '2026-11-27T10:00:00.000Z',
};
const APPROVAL = { id: 'apr_1', status: 'approved', intent_label: 'finance.payout_review', decided_at: '2026-11-27T10:01:00.000Z', candidates: [] };

describe('igw teaching commands (in process, fake gateway)', () => {
  it('intentions create --tools sends the patterns; update PATCHes only the given fields', async () => {
    const h = harness((req) => ({ status: req.method === 'POST' ? 201 : 200, body: INTENTION }));
    expect(
      await run(
        ['intentions', 'create', '--label', 'finance.ledger_lookup', '--intent-class', 'lookup', '--tools', 'erp.fetch_ledger_*, erp.**.read', '--json'],
        h.io,
      ),
    ).toBe(0);
    expect(h.sent[0]).toEqual({
      method: 'POST',
      path: '/v1/intentions',
      body: { label: 'finance.ledger_lookup', intent_class: 'lookup', tools: ['erp.fetch_ledger_*', 'erp.**.read'] },
    });
    expect(await run(['intentions', 'update', 'int_1', '--description', 'Ledger reads.', '--tools', 'a.b,c.*', '--approval-required', 'false'], h.io)).toBe(0);
    expect(h.sent[1]).toEqual({
      method: 'PATCH',
      path: '/v1/intentions/int_1',
      body: { description: 'Ledger reads.', approval_required: false, tools: ['a.b', 'c.*'] },
    });
    expect(h.out()).toMatch(/tools\s+\["erp.fetch_ledger_\*"\]/);
    // "" clears the bindings; --approval-required takes a boolean.
    await run(['intentions', 'update', 'int_1', '--tools', '', '--approval-required', 'yes'], h.io);
    expect(h.sent[2]?.body).toEqual({ approval_required: true, tools: [] });
  });

  it('intentions update with nothing to change, or a non-boolean --approval-required, is a usage error (exit 1) and sends nothing', async () => {
    const h = harness(() => ({ status: 200, body: INTENTION }));
    expect(await run(['intentions', 'update', 'int_1'], h.io)).toBe(1);
    expect(h.err()).toContain('at least one field');
    expect(await run(['intentions', 'update', 'int_1', '--approval-required', 'maybe'], h.io)).toBe(1);
    expect(h.sent).toEqual([]);
  });

  it('examples add sends the call (covered unless --not-covered); list prints every page; rm deletes', async () => {
    const pages = [
      { data: [EXAMPLE], next_cursor: 'c2' },
      { data: [{ ...EXAMPLE, id: 'iex_0', covered: false, source: 'manual' }], next_cursor: null },
    ];
    const h = harness((req) => {
      if (req.method === 'POST') return { status: 201, body: { ...EXAMPLE, source: 'manual', ...(req.body as object) } };
      if (req.method === 'DELETE') return { status: 204 };
      return { status: 200, body: req.path.includes('cursor=c2') ? pages[1] : pages[0] };
    });
    expect(await run(['examples', 'add', 'int_1', '--tool', 'erp.fetch_ledger_entry', '--args', '{"entry_id":"LE-1"}', '--json'], h.io)).toBe(0);
    expect(h.sent[0]).toEqual({
      method: 'POST',
      path: '/v1/intentions/int_1/examples',
      body: { tool_call: { name: 'erp.fetch_ledger_entry', arguments: { entry_id: 'LE-1' } }, covered: true },
    });
    expect(h.json()).toMatchObject({ id: 'iex_1', covered: true });
    await run(
      ['examples', 'add', 'int_1', '--tool', 'erp.delete_ledger_entry', '--not-covered', '--context', '[{"role":"user","content":"Delete it."}]'],
      h.io,
    );
    expect(h.sent[1]?.body).toEqual({
      tool_call: { name: 'erp.delete_ledger_entry' },
      conversation_context: [{ role: 'user', content: 'Delete it.' }],
      covered: false,
    });

    const list = harness((req) => ({ status: 200, body: req.path.includes('cursor=c2') ? pages[1] : pages[0] }));
    expect(await run(['examples', 'list', 'int_1'], list.io)).toBe(0);
    expect(list.out()).toMatch(/^ID\s+COVERED\s+SOURCE\s+TOOL\s+ARGUMENTS/);
    expect(list.out()).toMatch(/iex_1\s+yes\s+approval\s+erp.fetch_ledger_entry\s+\{"entry_id":"LE-1"\}/);
    expect(list.out()).toMatch(/iex_0\s+no\s+manual/);
    expect(list.sent.map((s) => s.path)).toEqual(['/v1/intentions/int_1/examples', '/v1/intentions/int_1/examples?cursor=c2']);

    expect(await run(['examples', 'rm', 'int_1', 'iex_1', '--json'], h.io)).toBe(0);
    expect(h.sent.at(-1)).toEqual({ method: 'DELETE', path: '/v1/intentions/int_1/examples/iex_1', body: undefined });
  });

  it('examples add without --tool or with bad --args JSON exits 1; an API 400 exits 6 with its details', async () => {
    const h = harness(() => ({
      status: 400,
      body: { code: 'invalid_request', message: 'The request is invalid.', details: [{ path: 'tool_call.name', message: 'must be a tool name' }] },
    }));
    expect(await run(['examples', 'add', 'int_1'], h.io)).toBe(1);
    expect(await run(['examples', 'add', 'int_1', '--tool', 't', '--args', '[1]'], h.io)).toBe(1);
    expect(await run(['examples', 'add', 'int_1', '--tool', 't', '--context', '{"role":"user"}'], h.io)).toBe(1);
    expect(h.sent).toEqual([]);
    expect(await run(['examples', 'add', 'int_1', '--tool', 'not a tool'], h.io)).toBe(6);
    expect(h.err()).toContain('400 invalid_request: The request is invalid. (tool_call.name: must be a tool name)');
  });

  it('approvals approve sends remember / as / reason; deny sends remember / reason', async () => {
    const h = harness(() => ({ status: 200, body: APPROVAL }));
    expect(await run(['approvals', 'approve', 'apr_1', '--remember', '--as', 'finance.payout_review', '--reason', 'payout read', '--json'], h.io)).toBe(0);
    expect(h.sent[0]).toEqual({
      method: 'POST',
      path: '/v1/approvals/apr_1/approve',
      body: { reason: 'payout read', remember: true, intent_label: 'finance.payout_review' },
    });
    expect(h.json()).toMatchObject({ id: 'apr_1', status: 'approved' });
    await run(['approvals', 'approve', 'apr_1'], h.io);
    expect(h.sent[1]?.body).toEqual({});
    await run(['approvals', 'deny', 'apr_1', '--remember', '--reason', 'not a ledger read'], h.io);
    expect(h.sent[2]).toEqual({ method: 'POST', path: '/v1/approvals/apr_1/deny', body: { reason: 'not a ledger read', remember: true } });
    await run(['approvals', 'deny', 'apr_1'], h.io);
    expect(h.sent[3]?.body).toEqual({});
  });
});
