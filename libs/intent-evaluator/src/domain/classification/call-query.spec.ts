import { buildQuery, callAction, SOURCE_WEIGHTS, type ClassificationInput } from './call-query';

const call = (toolName: string, args?: Record<string, unknown>, context?: string[]): ClassificationInput => ({
  toolName,
  arguments: args,
  conversationContext: context?.map((content) => ({ role: 'user', content })),
});

describe('buildQuery', () => {
  it('weights tool name over argument keys, values and chat, keeping the highest weight of a term', () => {
    const query = buildQuery(
      call('get_invoice', { customer_id: 'cus_9', reason: 'duplicate charge', nested: { refund_amount: 3 } }, ['the client wants a refund']),
    );
    const w = Object.fromEntries(query.map((t) => [t.term, t.weight]));
    expect(w.read).toBe(SOURCE_WEIGHTS.toolName);
    expect(w.invoic).toBe(SOURCE_WEIGHTS.toolName);
    expect(w.customer).toBe(SOURCE_WEIGHTS.argumentKey);
    // `refund` is both an argument key and a chat word: it keeps the higher of the two weights.
    expect(w.refund).toBe(Math.max(SOURCE_WEIGHTS.argumentKey, SOURCE_WEIGHTS.conversation));
    expect(w.duplic).toBe(SOURCE_WEIGHTS.argumentValue);
    expect(w.want).toBe(SOURCE_WEIGHTS.conversation);
  });

  it('skips identifier-like argument values (ids, e-mail addresses, file names)', () => {
    const query = buildQuery(call('lookup', { a: 'cus_Nf82kd0', b: 'jane@initech.com', d: 'contacts.csv', e: 'vacation' }));
    expect(query.map((t) => t.term).sort()).toEqual(['read', 'vacat']);
  });

  it('reads the words of URL and path arguments at their own, lower weight', () => {
    const query = buildQuery(call('fetch', { url: 'https://status.supabase.com/api/v2/summary.json', path: '/workspace/repos/api/main.go' }));
    const source = Object.fromEntries(query.map((t) => [t.term, t.source]));
    expect(source).toMatchObject({ statu: 'argumentPath', supabas: 'argumentPath', workspac: 'argumentPath', repositori: 'argumentPath' });
    expect(query.find((t) => t.term === 'statu')?.weight).toBe(SOURCE_WEIGHTS.argumentPath);
  });

  it('reads only the last few non-system messages', () => {
    const query = buildQuery({
      toolName: 'tool',
      conversationContext: [
        { role: 'user', content: 'alpha' },
        { role: 'user', content: 'bravo' },
        { role: 'system', content: 'charlie' },
        { role: 'assistant', content: 'delta' },
        { role: 'user', content: 'echo' },
      ],
    });
    expect(query.map((t) => t.term).sort()).toEqual(['bravo', 'delta', 'echo', 'tool']);
  });

  it('takes a generic tool’s action from its arguments: the SQL statement or an operation word', () => {
    const verb = (toolName: string, args: Record<string, unknown>) =>
      buildQuery({ toolName, arguments: args }).find((t) => t.source === 'toolName' && ['read', 'write', 'delete', 'export'].includes(t.term))?.term;
    expect(verb('execute_sql', { project_id: 'p1', query: "UPDATE orders SET status = 'paid' WHERE id = 7" })).toBe('write');
    expect(verb('execute_sql', { query: '  select count(*) from events' })).toBe('read');
    expect(verb('execute_sql', { query: 'DELETE FROM sessions WHERE expires_at < now()' })).toBe('delete');
    expect(verb('execute_sql', { query: "COPY (SELECT * FROM users) TO '/tmp/u.csv'" })).toBe('export');
    expect(verb('salesforce_dml_records', { operation: 'update', objectName: 'Opportunity' })).toBe('write');
    // The tool name's own verb wins; prose is not a statement.
    expect(verb('get_invoice', { note: 'update the customer later' })).toBe('read');
    // A tool whose name names no action: only a statement or an operation word gives it one.
    const action = (args: Record<string, unknown>) => callAction({ toolName: 'tool', arguments: args });
    expect(action({ note: 'please select the best plan' })).toEqual({ generic: false });
    expect(action({ title: 'Update the onboarding doc', body: 'Create a table of contents' })).toEqual({ generic: false });
    expect(action({ sql: 'ALTER TABLE users ADD COLUMN plan text' })).toEqual({ verb: 'write', generic: true });
    expect(action({ operation: 'cus_8f2k' })).toEqual({ generic: false });
  });
});

describe('callAction', () => {
  it('lets an SQL statement decide over the name, since the statement is what runs', () => {
    expect(callAction({ toolName: 'run_query', arguments: { sql: 'DELETE FROM users WHERE id = 7' } })).toEqual({ verb: 'delete', generic: true });
    expect(callAction({ toolName: 'run_soql_query', arguments: { query: 'SELECT Id FROM Account' } })).toEqual({ verb: 'read', generic: true });
    expect(
      buildQuery({ toolName: 'run_query', arguments: { sql: 'DELETE FROM users' } })
        .filter((t) => t.source === 'toolName')
        .map((t) => t.term),
    ).toEqual(['delete', 'run']);
  });

  it('takes the name’s verb, else an operation argument’s', () => {
    expect(callAction({ toolName: 'get_invoice', arguments: { operation: 'delete' } })).toEqual({ verb: 'read', generic: false });
    expect(callAction({ toolName: 'salesforce_dml_records', arguments: { operation: 'update' } })).toEqual({ verb: 'write', generic: true });
    expect(callAction({ toolName: 'kubectl_generic', arguments: { namespace: 'prod' } })).toEqual({ generic: false });
  });
});
