import { maskPaths, MASK, maskToolResult, planMcpCall, redactionOf, withoutPaths } from './mcp-enforcement';
import { mcpToolAction, mcpToolOf } from './mcp-server';

describe('MCP enforcement plans (DESIGN 6.13)', () => {
  const args = { path: '/docs/a.md', ssn: '123', nested: { token: 't', keep: 1 } };

  it('maps a tool to its action and back', () => {
    expect(mcpToolAction('files', 'read', { a: 1 })).toEqual({
      surface: 'mcp',
      operation: 'files.read',
      target_resource: 'mcp://files/read',
      arguments: { a: 1 },
    });
    expect(mcpToolOf('files', 'files.delete')).toBe('delete');
    expect(mcpToolOf('files', 'mail.send')).toBeNull();
    expect(mcpToolOf('files', 'files.')).toBeNull();
  });

  it.each(['allow', 'allow_with_log_extra', 'allow_with_shadow', 'defer'])('forwards %s unchanged', (kind) => {
    expect(planMcpCall('files', 'read', args, { kind, decision_id: 'dec_1' })).toEqual({ forward: true, tool: 'read', arguments: args, maskResult: [] });
  });

  it.each([
    ['negotiate', { message: 'narrower', suggested_action: {} }, /negotiate: narrower/],
    ['approval', { approval_request_id: 'apr_1' }, /approval request apr_1/],
    ['step_up', { required_acr: 'mfa' }, /acr mfa/],
    ['deny', { reason: 'forbidden_operation', message: 'no' }, /deny \(forbidden_operation\): no/],
    ['deny_with_reroute', { reroute_card_id: 'card-2', message: 'elsewhere' }, /intent card card-2/],
  ])('refuses %s with a text that says what to do next', (kind, fields, text) => {
    const plan = planMcpCall('files', 'delete', args, { kind, decision_id: 'dec_1', ...fields });
    expect(plan.forward).toBe(false);
    if (!plan.forward) expect(plan.text).toMatch(text);
  });

  it('refuses a kind it does not know (never forwards by default)', () => {
    expect(planMcpCall('files', 'read', args, { kind: 'something_new' }).forward).toBe(false);
  });

  it('redact drops argument paths before forwarding and masks result paths', () => {
    const plan = planMcpCall('files', 'read', args, {
      kind: 'allow_with_redact',
      redact_fields: ['arguments.ssn', 'arguments.nested.token', 'result.email', 'path'],
    });
    expect(plan).toEqual({ forward: true, tool: 'read', arguments: { nested: { keep: 1 } }, maskResult: [['email'], ['path']] });
    expect(args.ssn).toBe('123'); // the caller's object is untouched
  });

  it('redaction splits prefixed and bare fields and ignores empty segments', () => {
    expect(redactionOf(['arguments.a.b', 'result.c', 'd', 'e..f', 'arguments'])).toEqual({
      drop: [['a', 'b'], ['d'], ['arguments']],
      mask: [['c'], ['d'], ['arguments']],
    });
  });

  it('masks only fields that are present', () => {
    expect(maskPaths({ a: { b: 1 }, c: 2 }, [['a', 'b'], ['x', 'y'], ['c']])).toEqual({ a: { b: MASK }, c: MASK });
    expect(withoutPaths({ a: { b: 1 } }, [['a', 'b', 'c'], ['z']])).toEqual({ a: { b: 1 } });
  });

  it('downgrade and substitute call the named tool of the same server', () => {
    expect(planMcpCall('files', 'export', args, { kind: 'allow_with_downgrade', downgraded_action: { operation: 'files.read' } })).toEqual({
      forward: true,
      tool: 'read',
      arguments: args,
      maskResult: [],
    });
    expect(planMcpCall('files', 'delete', args, { kind: 'substitute', replacement_action: { operation: 'files.archive', arguments: { path: '/x' } } })).toEqual(
      {
        forward: true,
        tool: 'archive',
        arguments: { path: '/x' },
        maskResult: [],
      },
    );
  });

  it('never calls a replacement on another server', () => {
    const plan = planMcpCall('files', 'delete', args, { kind: 'substitute', replacement_action: { operation: 'mail.send' } });
    expect(plan.forward).toBe(false);
    if (!plan.forward) expect(plan.text).toMatch(/not a tool of server files/);
  });

  it('masks a result field wherever the agent reads it: structured content, JSON text, repeated values', () => {
    const structured = { path: '/a', email: 'owner@example.com', card: { number: 4111111111111111 } };
    const result = {
      isError: false,
      structuredContent: structured,
      content: [
        { type: 'text', text: JSON.stringify(structured) },
        { type: 'text', text: 'mail owner@example.com about card 4111111111111111' },
        { type: 'image', data: 'owner@example.com', mimeType: 'image/png' },
      ],
    };
    const masked = maskToolResult(result, [['email'], ['card', 'number']]);
    expect(masked.structuredContent).toEqual({ path: '/a', email: MASK, card: { number: MASK } });
    expect(masked.content).toEqual([
      { type: 'text', text: JSON.stringify({ path: '/a', email: MASK, card: { number: MASK } }) },
      { type: 'text', text: `mail ${MASK} about card ${MASK}` },
      { type: 'image', data: 'owner@example.com', mimeType: 'image/png' },
    ]);
    expect(result.structuredContent.email).toBe('owner@example.com');
  });

  it('masks a JSON text result without structured content, and leaves results alone without paths', () => {
    const result = { content: [{ type: 'text', text: '{"email":"a@b.co","n":1}' }] };
    expect(maskToolResult(result, [['email']]).content).toEqual([{ type: 'text', text: `{"email":"${MASK}","n":1}` }]);
    expect(maskToolResult(result, [])).toBe(result);
  });
});
