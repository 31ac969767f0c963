import { readMcpPost } from './mcp-post';

const accept = { accept: 'application/json, text/event-stream' };
const init = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
};
const list = { jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} };

describe('readMcpPost', () => {
  it('reads one message or a batch', () => {
    expect(readMcpPost(accept, list, false)).toEqual({ messages: [list], batch: false });
    expect(readMcpPost(accept, [list, { ...list, id: 3 }], false)).toMatchObject({ batch: true, messages: [{ id: 2 }, { id: 3 }] });
    expect(readMcpPost(accept, init, true)).toMatchObject({ batch: false });
  });

  it.each([
    ['no accept', {}, list, false, 406],
    ['accept without SSE', { accept: 'application/json' }, list, false, 406],
    ['not JSON-RPC', accept, { hello: 1 }, false, 400],
    ['an empty batch', accept, [], false, 400],
    ['a batch over the limit', accept, Array.from({ length: 101 }, (_, i) => ({ ...list, id: i })), false, 400],
    ['initialize in an open session', accept, init, false, 400],
    ['initialize with another message', accept, [init, list], true, 400],
    ['an unsupported protocol version', { ...accept, 'mcp-protocol-version': '1999-01-01' }, list, false, 400],
  ])('%s: refused', (_label, headers, body, opening, status) => {
    expect(readMcpPost(headers, body, opening)).toMatchObject({ status });
  });

  it('names the batch element that is not JSON-RPC', () => {
    expect(readMcpPost(accept, [list, { id: 5 }], false)).toMatchObject({ status: 400, message: expect.stringContaining('body[1]') });
  });
});
