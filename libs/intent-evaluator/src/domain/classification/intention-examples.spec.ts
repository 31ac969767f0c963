import { callSignature, isLike } from './call-signature';
import { ExampleIndex } from './intention-examples';

const sig = (toolName: string, args?: Record<string, unknown>) => callSignature({ toolName, arguments: args });

describe('call signatures (what "like an example" means)', () => {
  it('SQL: the same statement with other literals is alike; another SELECT, a DELETE, an UPDATE or a SELECT that also drops is not', () => {
    const select = sig('run_query', { sql: 'SELECT * FROM invoices WHERE id = 1' });
    expect(isLike(sig('run_query', { sql: 'select *  from invoices where id = 42;' }), select)).toBe(true);
    expect(isLike(sig('run_query', { sql: "SELECT * FROM invoices WHERE id = 'in_7'" }), select)).toBe(true);
    expect(isLike(sig('run_query', { sql: 'select name from customers' }), select)).toBe(false);
    expect(isLike(sig('run_query', { sql: 'DELETE FROM invoices WHERE id = 1' }), select)).toBe(false);
    expect(isLike(sig('run_query', { sql: 'UPDATE invoices SET paid = true' }), select)).toBe(false);
    expect(isLike(sig('run_query', { sql: 'SELECT 1; DROP TABLE invoices' }), select)).toBe(false);
    expect(isLike(sig('run_query', { sql: 'WITH x AS (SELECT 1) DELETE FROM invoices' }), select)).toBe(false);
  });

  it('commands: kubectl get is not kubectl delete; the program word and flags do not count', () => {
    const get = sig('kubectl_generic', { command: 'get pods -n prod' });
    expect(isLike(sig('kubectl_generic', { command: 'kubectl get pods --all-namespaces' }), get)).toBe(true);
    expect(isLike(sig('kubectl_generic', { command: 'delete pods -n prod' }), get)).toBe(false);
    expect(isLike(sig('kubectl_generic', { command: 'get secrets' }), get)).toBe(false);
    expect(isLike(sig('kubectl', { args: ['delete', 'pod', 'x'] }), sig('kubectl', { args: ['get', 'pod', 'x'] }))).toBe(false);
  });

  it('operations and HTTP methods: GET is not POST', () => {
    expect(isLike(sig('stripe_api', { method: 'POST', path: '/v1/refunds' }), sig('stripe_api', { method: 'GET', path: '/v1/refunds' }))).toBe(false);
    expect(isLike(sig('stripe_api', { method: 'get', path: '/v1/charges' }), sig('stripe_api', { method: 'GET', path: '/v1/refunds' }))).toBe(true);
  });

  it('URLs by host, paths by top directory', () => {
    const fetchDocs = sig('fetch', { url: 'https://docs.example.com/a' });
    expect(isLike(sig('fetch', { url: 'https://docs.example.com/b?x=1' }), fetchDocs)).toBe(true);
    expect(isLike(sig('fetch', { url: 'http://169.254.169.254/latest' }), fetchDocs)).toBe(false);
    expect(isLike(sig('read_file', { path: '/home/agent/.kube/config' }), sig('read_file', { path: '/workspace/api/main.go' }))).toBe(false);
  });

  it('argument keys must be the same: leaving out a filter widens a call, adding one changes it', () => {
    const ex = sig('list_invoices', { customer: 'cus_Nf82kd0', limit: 12 });
    expect(isLike(sig('list_invoices', { customer: 'cus_Pz1', limit: 1 }), ex)).toBe(true);
    expect(isLike(sig('list_invoices', { limit: 100 }), ex)).toBe(false);
    expect(isLike(sig('list_invoices', { customer: 'cus_Pz1', limit: 1, delete_after: true }), ex)).toBe(false);
    expect(isLike(sig('list_payouts', { customer: 'cus_Pz1', limit: 1 }), ex)).toBe(false);
  });

  it('values that choose what a call does must agree; ids, numbers, dates, addresses and text are free', () => {
    const patch = sig('kubectl_patch', { resourceType: 'deployment', name: 'web', patchData: { spec: { replicas: 8 } } });
    expect(isLike(sig('kubectl_patch', { resourceType: 'deployment', name: 'web', patchData: { spec: { replicas: 2 } } }), patch)).toBe(true);
    expect(isLike(sig('kubectl_patch', { resourceType: 'secret', name: 'web', patchData: { spec: { replicas: 2 } } }), patch)).toBe(false);
    expect(isLike(sig('kubectl_patch', { resourceType: 'deployment', name: 'web', patchData: { data: { KEY: 'x' } } }), patch)).toBe(false);
    const search = sig('hubspot-search-objects', {
      objectType: 'contacts',
      filterGroups: [{ filters: [{ propertyName: 'email', operator: 'EQ', value: 'ada@example.com' }] }],
      properties: ['firstname', 'email'],
    });
    expect(
      isLike(
        sig('hubspot-search-objects', {
          objectType: 'contacts',
          filterGroups: [{ filters: [{ propertyName: 'email', operator: 'EQ', value: 'bo@example.com' }] }],
          properties: ['email', 'firstname'],
        }),
        search,
      ),
    ).toBe(true);
    expect(
      isLike(
        sig('hubspot-search-objects', {
          objectType: 'contacts',
          filterGroups: [{ filters: [{ propertyName: 'country', operator: 'EQ', value: 'Germany' }] }],
          properties: ['firstname', 'email'],
        }),
        search,
      ),
    ).toBe(false);
    const report = sig('aggregate_query', {
      objectName: 'Opportunity',
      selectFields: ['Owner.Name', 'SUM(Amount) total'],
      whereClause: "IsClosed = false AND Stage = 'Commit'",
    });
    expect(
      isLike(
        sig('aggregate_query', {
          objectName: 'Opportunity',
          selectFields: ['Owner.Name', 'SUM(Amount) total'],
          whereClause: "IsClosed = false AND Stage = 'Best'",
        }),
        report,
      ),
    ).toBe(true);
    expect(
      isLike(
        sig('aggregate_query', {
          objectName: 'Opportunity',
          selectFields: ['Owner.Name', 'AVG(Discount) d'],
          whereClause: "IsClosed = false AND Stage = 'Commit'",
        }),
        report,
      ),
    ).toBe(false);
    expect(
      isLike(
        sig('aggregate_query', { objectName: 'Opportunity', selectFields: ['Owner.Name', 'SUM(Amount) total'], whereClause: "StageName = 'Closed Won'" }),
        report,
      ),
    ).toBe(false);
    const issue = sig('atlassian.fetch', { id: 'ari:cloud:jira:b7d0e6c4:issue/10482' });
    expect(isLike(sig('atlassian.fetch', { id: 'ari:cloud:jira:aa11bb22:issue/77' }), issue)).toBe(true);
    expect(isLike(sig('atlassian.fetch', { id: 'ari:cloud:confluence:b7d0e6c4:page/2201485313' }), issue)).toBe(false);
    expect(isLike(sig('stripe.retrieve', { id: 'cus_Nf82kd0' }), sig('stripe.retrieve', { id: 'cus_Pz4kQ1' }))).toBe(true);
    expect(isLike(sig('stripe.retrieve', { id: 'in_1QxY7b' }), sig('stripe.retrieve', { id: 'cus_Pz4kQ1' }))).toBe(false);
    expect(isLike(sig('delete_file', { path: '/tmp/a', force: true }), sig('delete_file', { path: '/tmp/b', force: false }))).toBe(false);
    expect(isLike(sig('send_email', { to: 'a@b.c', body: 'Hello there, see you' }), sig('send_email', { to: 'x@y.z', body: 'Other words entirely' }))).toBe(
      true,
    );
  });
});

describe('ExampleIndex', () => {
  const call = (name: string, args: Record<string, unknown>) => ({ name, arguments: args });

  it('positive and negative verdicts per intention; a negative outweighs a positive of the same intention', () => {
    const index = new ExampleIndex();
    index.add({ id: 'e1', intentionId: 'db.read', covered: true, toolCall: call('execute_sql', { query: 'select * from t where id = 1' }) });
    index.add({ id: 'e2', intentionId: 'db.read', covered: false, toolCall: call('execute_sql', { query: 'delete from t where id = 1' }) });
    index.add({ id: 'e3', intentionId: 'db.fix', covered: true, toolCall: call('execute_sql', { query: 'delete from t where id = 7' }) });
    expect(index.verdict({ toolName: 'execute_sql', arguments: { query: 'SELECT * FROM t WHERE id = 3' } }).positive).toEqual(new Set(['db.read']));
    const del = index.verdict({ toolName: 'execute_sql', arguments: { query: 'DELETE FROM t WHERE id = 2' } });
    expect(del.positive).toEqual(new Set(['db.fix']));
    expect(del.negative).toEqual(new Set(['db.read']));
    expect(del.matched.map((m) => m.id).sort()).toEqual(['e2', 'e3']);
    index.add({ id: 'e4', intentionId: 'db.fix', covered: false, toolCall: call('execute_sql', { query: 'delete from t where id = 9' }) });
    expect(index.verdict({ toolName: 'execute_sql', arguments: { query: 'DELETE FROM t WHERE id = 5' } }).positive.size).toBe(0);
  });

  it('remove and removeIntention forget examples; another tool never matches', () => {
    const index = new ExampleIndex();
    index.add({ id: 'e1', intentionId: 'i1', covered: true, toolCall: call('a', {}) });
    index.add({ id: 'e2', intentionId: 'i2', covered: true, toolCall: call('a', {}) });
    expect(index.verdict({ toolName: 'b' }).matched).toEqual([]);
    index.remove('e1');
    expect([...index.verdict({ toolName: 'a' }).positive]).toEqual(['i2']);
    index.removeIntention('i2');
    expect(index.size).toBe(0);
    expect(index.verdict({ toolName: 'a' }).matched).toEqual([]);
  });
});
