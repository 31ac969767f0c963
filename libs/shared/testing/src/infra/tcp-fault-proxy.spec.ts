import { connect, createServer, type Server, type Socket } from 'node:net';
import { startTcpFaultProxy, type TcpFaultProxy } from './tcp-fault-proxy';

// Loopback only: an echo server behind the proxy, driven by raw sockets.

interface Probe {
  socket: Socket;
  received(): string;
  /** Resolves with how the socket ended: `reset` (ECONNRESET/EPIPE), `closed`, or `open` after `ms`. */
  ending(ms: number): Promise<'reset' | 'closed' | 'open'>;
}

function open(port: number): Promise<Probe> {
  return new Promise((resolve, reject) => {
    let data = '';
    let end: 'reset' | 'closed' | null = null;
    const socket = connect({ host: '127.0.0.1', port }, () => resolve(probe));
    socket.on('data', (d) => (data += d.toString()));
    socket.on('error', (err: NodeJS.ErrnoException) => {
      end = err.code === 'ECONNRESET' || err.code === 'EPIPE' ? 'reset' : 'closed';
      reject(err);
    });
    socket.on('close', () => (end ??= 'closed'));
    const probe: Probe = {
      socket,
      received: () => data,
      ending: async (ms) => {
        const deadline = Date.now() + ms;
        while (end === null && Date.now() < deadline) await sleep(10);
        return end ?? 'open';
      },
    };
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until(check: () => boolean, ms = 2000): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (!check() && Date.now() < deadline) await sleep(10);
  return check();
}

describe('startTcpFaultProxy', () => {
  let echo: Server;
  let echoPort: number;
  let proxy: TcpFaultProxy;
  const probes: Probe[] = [];
  const track = async (p: Promise<Probe>) => {
    const probe = await p;
    probes.push(probe);
    return probe;
  };

  beforeEach(async () => {
    echo = createServer((s) => {
      s.on('error', () => undefined);
      s.pipe(s);
    });
    await new Promise<void>((r) => echo.listen(0, '127.0.0.1', () => r()));
    echoPort = (echo.address() as { port: number }).port;
    proxy = await startTcpFaultProxy({ host: '127.0.0.1', port: echoPort });
  });

  afterEach(async () => {
    for (const p of probes.splice(0)) p.socket.destroy();
    await proxy.close();
    await new Promise<void>((r) => echo.close(() => r()));
  });

  it('forwards both ways and counts connections', async () => {
    const a = await track(open(proxy.port));
    const b = await track(open(proxy.port));
    a.socket.write('ping-a');
    b.socket.write('ping-b');
    expect(await until(() => a.received() === 'ping-a' && b.received() === 'ping-b')).toBe(true);
    expect(proxy.mode).toBe('open');
    expect(proxy.stats()).toEqual({ accepted: 2, refused: 0, open: 2 });
    a.socket.end();
    expect(await until(() => proxy.stats().open === 1)).toBe(true);
  });

  it('cut resets open connections and every new one; restore forwards again', async () => {
    const before = await track(open(proxy.port));
    before.socket.on('error', () => undefined);
    proxy.cut();
    expect(await before.ending(2000)).toBe('reset');

    // A new connection is reset before it can carry a byte.
    const during = connect({ host: '127.0.0.1', port: proxy.port });
    const outcome = await new Promise<string>((resolve) => {
      during.on('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? 'error'));
      during.on('data', () => resolve('data'));
      during.on('close', () => resolve('closed'));
      during.write('anyone?');
    });
    expect(['ECONNRESET', 'EPIPE', 'closed']).toContain(outcome);
    expect(proxy.stats().refused).toBe(1);
    expect(proxy.stats().open).toBe(0);

    proxy.restore();
    const after = await track(open(proxy.port));
    after.socket.write('back');
    expect(await until(() => after.received() === 'back')).toBe(true);
  });

  it('blackhole accepts but forwards nothing, on old and new connections, until restore', async () => {
    const old = await track(open(proxy.port));
    old.socket.write('one');
    expect(await until(() => old.received() === 'one')).toBe(true);

    proxy.blackhole();
    old.socket.write('two');
    const fresh = await track(open(proxy.port));
    fresh.socket.write('three');
    await sleep(300);
    expect(old.received()).toBe('one');
    expect(fresh.received()).toBe('');
    expect(await fresh.ending(10)).toBe('open');
    expect(proxy.stats()).toMatchObject({ accepted: 2, refused: 0, open: 2 });

    proxy.restore();
    expect(await until(() => old.received() === 'onetwo' && fresh.received() === 'three')).toBe(true);
  });

  it('a target that refuses makes the proxy reset its client', async () => {
    const dead = await startTcpFaultProxy({ host: '127.0.0.1', port: proxy.port });
    await proxy.close();
    try {
      const p = await track(open(dead.port));
      p.socket.on('error', () => undefined);
      expect(await p.ending(2000)).toBe('reset');
    } finally {
      await dead.close();
    }
  });

  it('rewrites a URL to point at the proxy, keeping the rest', () => {
    expect(proxy.rewrite('postgresql://postgres@127.0.0.1:5432/igw_x?sslmode=disable')).toBe(
      `postgresql://postgres@127.0.0.1:${proxy.port}/igw_x?sslmode=disable`,
    );
    expect(proxy.rewrite('redis://localhost:6379/2')).toBe(`redis://127.0.0.1:${proxy.port}/2`);
  });
});
