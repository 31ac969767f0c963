import { connect, createServer, type Server, type Socket } from 'node:net';

/**
 * How the proxy treats traffic:
 * - `open`: every connection is forwarded to the target;
 * - `cut`: the dependency is gone — open connections are reset and new ones reset at once
 *   (a stopped server or a dropped route: clients see ECONNRESET / connection refused quickly);
 * - `blackhole`: the dependency hangs — connections are accepted, nothing is forwarded either way
 *   (a frozen server or a silent network partition: clients only notice through their timeouts).
 */
export type FaultMode = 'open' | 'cut' | 'blackhole';

export interface TcpFaultProxyStats {
  /** Connections accepted since the proxy started (whatever the mode). */
  accepted: number;
  /** Connections reset on arrival because the proxy was cut. */
  refused: number;
  /** Connections open now (forwarded or held). */
  open: number;
}

export interface TcpFaultProxy {
  host: string;
  port: number;
  target: { host: string; port: number };
  readonly mode: FaultMode;
  stats(): TcpFaultProxyStats;
  /** Resets every open connection and every new one until `restore()`. */
  cut(): void;
  /** Stops forwarding on every open connection and holds new ones unforwarded until `restore()`. */
  blackhole(): void;
  /** Forwards again: held connections reach the target, frozen ones flow again. */
  restore(): void;
  /** `url` with its host and port replaced by the proxy's (for DATABASE_URL, REDIS_URL…). */
  rewrite(url: string): string;
  close(): Promise<void>;
}

/**
 * Closes with a RST — unless the socket was already ended (a FIN sent: libuv refuses to reset a
 * socket it is shutting down, and the handle then never closes, which hangs the process at exit).
 */
function reset(socket: Socket): void {
  if (socket.destroyed) return;
  if (socket.writableEnded || socket.connecting) socket.destroy();
  else socket.resetAndDestroy();
}

/** One client connection and, once forwarded, its upstream twin. */
interface Link {
  client: Socket;
  upstream: Socket | null;
  flowing: boolean;
}

/** A TCP proxy a test controls, to take a dependency away (and give it back) under running processes. */
export async function startTcpFaultProxy(target: { host: string; port: number }, opts: { port?: number } = {}): Promise<TcpFaultProxy> {
  let mode: FaultMode = 'open';
  let accepted = 0;
  let refused = 0;
  const links = new Set<Link>();

  /** A fault: both sides are reset at once. */
  const drop = (link: Link) => {
    links.delete(link);
    reset(link.client);
    if (link.upstream) reset(link.upstream);
  };
  /** One side closed on its own: the other is closed once what it was sent is flushed. */
  const closed = (link: Link) => {
    if (!links.delete(link)) return;
    link.client.destroySoon();
    link.upstream?.destroySoon();
  };

  const flow = (link: Link) => {
    if (link.flowing) return;
    if (!link.upstream) {
      const upstream = connect({ host: target.host, port: target.port });
      link.upstream = upstream;
      // The target refusing or failing: the client sees the same as from the target itself.
      upstream.on('error', () => drop(link));
      upstream.on('close', () => closed(link));
    }
    link.client.pipe(link.upstream);
    link.upstream.pipe(link.client);
    link.client.resume();
    link.upstream.resume();
    link.flowing = true;
  };

  const freeze = (link: Link) => {
    if (!link.flowing) return;
    link.client.unpipe();
    link.upstream?.unpipe();
    link.client.pause();
    link.upstream?.pause();
    link.flowing = false;
  };

  const server: Server = createServer({ pauseOnConnect: true }, (client) => {
    accepted++;
    if (mode === 'cut') {
      refused++;
      client.on('error', () => undefined);
      reset(client);
      return;
    }
    const link: Link = { client, upstream: null, flowing: false };
    links.add(link);
    client.on('error', () => drop(link));
    client.on('close', () => closed(link));
    if (mode === 'open') flow(link);
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ host: '127.0.0.1', port: opts.port ?? 0 }, () => resolve());
  });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('unexpected proxy address');
  const port = address.port;

  return {
    host: '127.0.0.1',
    port,
    target,
    get mode() {
      return mode;
    },
    stats: () => ({ accepted, refused, open: links.size }),
    cut: () => {
      mode = 'cut';
      for (const link of [...links]) drop(link);
    },
    blackhole: () => {
      mode = 'blackhole';
      for (const link of links) freeze(link);
    },
    restore: () => {
      mode = 'open';
      for (const link of links) flow(link);
    },
    rewrite: (url: string) => {
      const u = new URL(url);
      u.hostname = '127.0.0.1';
      u.port = String(port);
      return u.toString();
    },
    close: async () => {
      mode = 'cut';
      for (const link of [...links]) drop(link);
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
