import { getEventListeners } from 'node:events';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { AgentJsonRpcTransport } from './agent-json-rpc.transport';

const auth = (clientId: string) => ({ token: '', clientId, scopes: [] });
const call = (id: number, name = 'echo'): JSONRPCMessage => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: { id } } });

describe('AgentJsonRpcTransport: one SDK server answering each POST', () => {
  let release: () => void = () => undefined;
  let transport: AgentJsonRpcTransport;
  let server: Server;

  beforeEach(async () => {
    server = new Server({ name: 'gw', version: '1' }, { capabilities: { tools: {} } });
    server.setRequestHandler(CallToolRequestSchema, async (req, extra) => {
      if (req.params.name === 'slow') await new Promise<void>((r) => (release = r));
      return { content: [{ type: 'text', text: `${extra.authInfo?.clientId}:${JSON.stringify(req.params.arguments)}` }] };
    });
    transport = new AgentJsonRpcTransport();
    await server.connect(transport);
  });
  afterEach(() => server.close());

  it("answers each request with its own POST's authInfo, in order, and notifications with nothing", async () => {
    const live = new AbortController().signal;
    const [a, b] = await Promise.all([transport.receive([call(1), call(2)], auth('key_a'), live), transport.receive([call(3)], auth('key_b'), live)]);
    expect(a.map((m) => ('result' in m ? (m.result as { content: { text: string }[] }).content[0]!.text : m))).toEqual(['key_a:{"id":1}', 'key_a:{"id":2}']);
    expect(b).toHaveLength(1);
    expect(JSON.stringify(b[0])).toContain('key_b:{\\"id\\":3}');
    expect(await transport.receive([{ jsonrpc: '2.0', method: 'notifications/initialized' }], auth('key_a'), live)).toEqual([]);
  });

  it('refuses a second request under an id still in flight', async () => {
    const live = new AbortController().signal;
    const first = transport.receive([call(7, 'slow')], auth('key_a'), live);
    const [dup] = await transport.receive([call(7)], auth('key_a'), live);
    expect(dup).toMatchObject({ id: 7, error: { code: -32600 } });
    release();
    expect((await first)[0]).toMatchObject({ id: 7, result: {} });
  });

  it('an agent gone before its answer cancels the request (the handler is told) and frees its id', async () => {
    const gone = new AbortController();
    const pending = transport.receive([call(9, 'slow')], auth('key_a'), gone.signal);
    gone.abort();
    expect((await pending)[0]).toMatchObject({ id: 9, error: { code: -32800 } });
    release();
    const [again] = await transport.receive([call(9)], auth('key_a'), new AbortController().signal);
    expect(again).toMatchObject({ id: 9, result: {} });
  });

  it('hands nothing to the server once the agent is gone', async () => {
    const gone = new AbortController();
    gone.abort();
    let handled = 0;
    server.setRequestHandler(CallToolRequestSchema, async () => {
      handled++;
      return { content: [] };
    });
    expect(await transport.receive([call(11)], auth('key_a'), gone.signal)).toEqual([]);
    await new Promise((r) => setTimeout(r, 10));
    expect(handled).toBe(0);
  });

  it("the agent's own cancel settles the request's POST and frees its id", async () => {
    const live = new AbortController().signal;
    const pending = transport.receive([call(12, 'slow')], auth('key_a'), live);
    await transport.receive([{ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 12 } }], auth('key_a'), live);
    expect((await pending)[0]).toMatchObject({ id: 12, error: { code: -32800 } });
    release();
  });

  it('a batch adds one abort listener, not one per request', async () => {
    const gone = new AbortController();
    const pending = transport.receive(
      Array.from({ length: 20 }, (_, i) => call(100 + i)),
      auth('key_a'),
      gone.signal,
    );
    expect(getEventListeners(gone.signal, 'abort')).toHaveLength(1);
    expect(await pending).toHaveLength(20);
    expect(getEventListeners(gone.signal, 'abort')).toHaveLength(0);
  });
});
