import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { upstreamDispatcher } from './upstream-dispatcher';
import { UpstreamHttpTransport } from './upstream-http.transport';

const call = (id: number): JSONRPCMessage => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'echo', arguments: { id } } });
const result = (id: unknown, extra: Record<string, unknown> = {}) => JSON.stringify({ jsonrpc: '2.0', id, result: { content: [], ...extra } });

/** A real HTTP upstream whose answer each test chooses. */
describe('UpstreamHttpTransport', () => {
  let server: Server;
  let url: URL;
  let answer: (req: IncomingMessage, body: { id?: unknown }, res: import('node:http').ServerResponse) => void;
  const seen: { method: string; headers: IncomingMessage['headers'] }[] = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      let text = '';
      req.on('data', (d: Buffer) => (text += d.toString()));
      req.on('end', () => {
        seen.push({ method: req.method!, headers: req.headers });
        answer(req, text ? JSON.parse(text) : {}, res);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`);
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  beforeEach(() => (seen.length = 0));

  const transport = (opts: { maxBytes?: number; allowPrivate?: boolean; sessionId?: string } = {}) => {
    const t = new UpstreamHttpTransport(url, {
      dispatcher: upstreamDispatcher(opts.allowPrivate ?? true),
      headers: { authorization: 'Bearer sealed' },
      ...(opts.sessionId ? { sessionId: opts.sessionId } : {}),
      ...(opts.maxBytes ? { maxBytes: opts.maxBytes } : {}),
    });
    const got: JSONRPCMessage[] = [];
    t.onmessage = (m) => got.push(m);
    return { t, got };
  };

  it('posts with the sealed headers, learns the session id and protocol, and delivers a JSON answer', async () => {
    answer = (_req, body, res) => res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'mcp-session-id': 'up-1' }).end(result(body.id));
    const { t, got } = transport();
    t.setProtocolVersion('2025-06-18');
    await t.send(call(1));
    expect(got).toEqual([{ jsonrpc: '2.0', id: 1, result: { content: [] } }]);
    expect(t.sessionId).toBe('up-1');
    await t.send(call(2));
    expect(seen[1]!.headers).toMatchObject({
      authorization: 'Bearer sealed',
      'mcp-session-id': 'up-1',
      'mcp-protocol-version': '2025-06-18',
      accept: 'application/json, text/event-stream',
      'content-type': 'application/json',
    });
  });

  it('reads an SSE answer event by event (progress, then the result)', async () => {
    answer = (_req, body, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(`event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 1, progress: 1 } })}\n\n`);
      res.end(`data: ${result(body.id)}\n\n`);
    };
    const { t, got } = transport();
    await t.send(call(3));
    expect(got.map((m) => ('method' in m ? m.method : 'answer'))).toEqual(['notifications/progress', 'answer']);
  });

  it('two clients on one upstream session (two replicas) each get their own answer under their own ids', async () => {
    answer = (_req, body, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(result(body.id, { echo: body.id }));
    const a = transport({ sessionId: 'shared' });
    const b = transport({ sessionId: 'shared' });
    await Promise.all([a.t.send(call(0)), b.t.send(call(0))]);
    const wire = (m: JSONRPCMessage) => (m as unknown as { result: { echo: string } }).result.echo;
    expect(a.got).toMatchObject([{ id: 0 }]);
    expect(b.got).toMatchObject([{ id: 0 }]);
    // On the wire the ids differ, so the upstream's per-session bookkeeping cannot mix them.
    expect(wire(a.got[0]!)).not.toBe(wire(b.got[0]!));
  });

  it('lets go of an SSE stream once its request is answered, though the upstream keeps it open', async () => {
    const open: import('node:http').ServerResponse[] = [];
    answer = (_req, body, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(`data: ${result(body.id)}\n\n`);
      open.push(res); // never ended: keep-alives would follow
    };
    const { t, got } = transport();
    await t.send(call(10));
    expect(got).toHaveLength(1);
    await new Promise<void>((resolve) => (open[0]!.writableEnded || open[0]!.destroyed ? resolve() : open[0]!.once('close', () => resolve())));
  });

  it('a stream that ends without the answer fails at once, not at the deadline', async () => {
    answer = (_req, _body, res) => res.writeHead(200, { 'content-type': 'text/event-stream' }).end(': nothing\n\n');
    await expect(transport().t.send(call(11))).rejects.toThrow(/without answering/);
  });

  it("the client's cancel cuts the request's exchange", async () => {
    answer = (req, body, res) => {
      if ('method' in body && (body as { method: string }).method === 'notifications/cancelled') return void res.writeHead(202).end();
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      req.socket.setKeepAlive(true); // the answer never comes
    };
    const { t } = transport();
    const pending = t.send(call(12)).then(
      () => 'answered',
      (err: Error) => err.name,
    );
    await new Promise((r) => setTimeout(r, 100));
    await t.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 12, reason: 'timeout' } });
    expect(await pending).toBe('AbortError');
  });

  it('a notification answered 202 delivers nothing', async () => {
    answer = (_req, _body, res) => res.writeHead(202).end();
    const { t, got } = transport();
    await t.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    expect(got).toEqual([]);
  });

  it('an HTTP error is the SDK error with the status only (404: the upstream forgot the session)', async () => {
    answer = (_req, _body, res) => res.writeHead(404, { 'content-type': 'text/plain' }).end('Traceback: secret=hunter2');
    const err = await transport({ sessionId: 'gone' })
      .t.send(call(4))
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StreamableHTTPError);
    expect((err as StreamableHTTPError).code).toBe(404);
    expect(String((err as Error).message)).not.toMatch(/hunter2/);
  });

  it('fails an answer larger than the cap while it is read, JSON or SSE', async () => {
    answer = (_req, body, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(result(body.id, { pad: 'x'.repeat(5000) }));
    await expect(transport({ maxBytes: 1000 }).t.send(call(5))).rejects.toThrow(/more than 1000 bytes/);
    answer = (_req, body, res) => res.writeHead(200, { 'content-type': 'text/event-stream' }).end(`data: ${result(body.id, { pad: 'x'.repeat(5000) })}\n\n`);
    await expect(transport({ maxBytes: 1000 }).t.send(call(6))).rejects.toThrow(/more than 1000 bytes/);
  });

  it('an answer that is neither JSON nor SSE, or not JSON-RPC, is refused', async () => {
    answer = (_req, _body, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<html>');
    await expect(transport().t.send(call(7))).rejects.toBeInstanceOf(StreamableHTTPError);
    answer = (_req, _body, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"not":"json-rpc"}');
    await expect(transport().t.send(call(8))).rejects.toThrow();
  });

  it('DELETE ends the upstream session; a 405 (none to end) is fine', async () => {
    answer = (_req, _body, res) => res.writeHead(405).end();
    const { t } = transport({ sessionId: 'up-2' });
    await t.terminateSession();
    expect(seen[0]).toMatchObject({ method: 'DELETE', headers: { 'mcp-session-id': 'up-2' } });
    expect(t.sessionId).toBeUndefined();
  });

  it('refuses a loopback upstream unless private upstreams are allowed', async () => {
    answer = (_req, body, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(result(body.id));
    await expect(transport({ allowPrivate: false }).t.send(call(9))).rejects.toThrow();
    expect(seen).toEqual([]);
  });
});
