import { connect, createServer, type Socket } from 'node:net';

export interface TcpBalancer {
  url: string;
  port: number;
  /** Connections handed to each target so far, by index. */
  connections(): number[];
  close(): Promise<void>;
}

/**
 * A round-robin TCP balancer, as a Kubernetes Service is to its pods: each new connection goes to
 * the next target; a target that refuses the connection (down, restarting) is skipped for the next
 * one, so only a connection every target refuses is reset.
 */
export async function startTcpBalancer(targets: readonly { host: string; port: number }[]): Promise<TcpBalancer> {
  let next = 0;
  const counts = targets.map(() => 0);
  const sockets = new Set<Socket>();
  const dial = (client: Socket, tries: number) => {
    const index = next++ % targets.length;
    const target = targets[index]!;
    const upstream = connect(target.port, target.host);
    sockets.add(upstream);
    upstream.once('close', () => sockets.delete(upstream));
    // Node clears `connecting` before it emits a refused connect's error: whether the leg ever
    // connected is kept here, or a refused dial would leave the client open and silent for ever.
    let connected = false;
    upstream.once('connect', () => {
      connected = true;
      counts[index]!++;
      client.pipe(upstream);
      upstream.pipe(client);
      client.resume();
      upstream.on('error', () => client.destroy());
      client.on('error', () => upstream.destroy());
      upstream.once('close', () => client.destroy());
      client.once('close', () => upstream.destroy());
    });
    upstream.once('error', () => {
      if (connected) return;
      if (tries + 1 < targets.length) dial(client, tries + 1);
      else client.resetAndDestroy();
    });
  };
  const server = createServer({ pauseOnConnect: true }, (client) => {
    sockets.add(client);
    client.once('close', () => sockets.delete(client));
    client.on('error', () => undefined);
    dial(client, 0);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    connections: () => [...counts],
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
