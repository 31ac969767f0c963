import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * What the fake HTTP servers (Vault, Conjur, OpenAI-compatible, webhook receiver) share: a real
 * `node:http` server on a free port, reading a request, and the connection-level part of a
 * scripted reply.
 */

// Unref'd: a scripted delay must not keep the test process alive after the server closed.
export const fakeSleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms).unref());

type Handle<T> = (fake: T, req: IncomingMessage, res: ServerResponse) => Promise<void>;

const plain500 = (res: ServerResponse) => res.writeHead(500).end();

/**
 * Listens on a free port of `host` and builds the fake once the port is known. A request the
 * handler fails on is answered with `internalError` (or the connection destroyed when headers
 * already went out). A fake whose constructor throws closes the server.
 */
export async function startFakeHttpServer<T>(
  create: (server: Server, port: number) => T,
  handle: Handle<T>,
  opts: { host?: string; internalError?: (res: ServerResponse) => void } = {},
): Promise<T> {
  const internalError = opts.internalError ?? plain500;
  const ref: { fake?: T } = {};
  const server = createServer((req, res) => {
    const fake = ref.fake;
    // Requests cannot arrive before listen resolved, so the fake is always built here.
    if (fake === undefined) return void res.writeHead(503).end();
    handle(fake, req, res).catch(() => {
      if (!res.headersSent && !res.destroyed) internalError(res);
      else res.destroy();
    });
  });
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, opts.host ?? '127.0.0.1', () => resolve());
  });
  try {
    ref.fake = create(server, (server.address() as AddressInfo).port);
  } catch (err) {
    server.close();
    throw err;
  }
  return ref.fake;
}

/** Stops listening and destroys open connections (hung and delayed replies included). */
export async function closeFakeHttpServer(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

/** The raw body as UTF-8. */
export async function readFakeBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** Method, path without the query, raw body and the body parsed as JSON (the raw string when it is not JSON; undefined when empty). */
export async function readFakeRequest(req: IncomingMessage): Promise<{ method: string; path: string; raw: string; body: unknown }> {
  const raw = await readFakeBody(req);
  let body: unknown = raw || undefined;
  try {
    body = raw ? JSON.parse(raw) : undefined;
  } catch {
    // recorded as the raw string
  }
  return { method: req.method ?? 'GET', path: (req.url ?? '/').split('?')[0] ?? '/', raw, body };
}

/** A scripted reply's connection-level forms: never answer, drop the connection, answer late. */
export type FakeConnectionReply = { hang: true } | { destroy: true } | { delayMs?: number };

/**
 * Plays the connection-level part of `reply`. The reply, narrowed, when an answer should now be
 * written; null when the request is over (hung, destroyed, or the client went away during the delay).
 */
export async function playFakeConnection<R extends FakeConnectionReply>(
  res: ServerResponse,
  reply: R,
): Promise<Exclude<R, { hang: true } | { destroy: true }> | null> {
  const r: FakeConnectionReply = reply;
  if ('hang' in r) return null;
  if ('destroy' in r) {
    res.destroy();
    return null;
  }
  if (r.delayMs) await fakeSleep(r.delayMs);
  return res.destroyed ? null : (reply as Exclude<R, { hang: true } | { destroy: true }>);
}
