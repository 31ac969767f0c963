import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client as PgClient } from 'pg';
import { startTcpBalancer, type TcpBalancer } from '../infra/tcp-balancer';
import { freePorts } from '../infra/free-port';
import { startApp, type AppProcess } from './app-process';

export const testDatabaseUrl = () => process.env.TEST_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
export const testRedisUrl = () => process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
export const testKafkaBrokers = () => process.env.TEST_KAFKA_BROKERS ?? '127.0.0.1:9092';

export const randomKey = (label = 'k') => `test-${label}-${randomBytes(24).toString('base64url')}`;

/** A fresh Ed25519 grant key as the distributed evaluator reads it (PKCS#8 PEM). */
export const testGrantKey = () => generateKeyPairSync('ed25519').privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();

export interface TestSystem {
  mode: 'embedded' | 'distributed';
  /** The public edge (the first gateway). */
  url: string;
  /** Every public edge (several gateways in distributed mode when asked for). */
  urls: string[];
  adminKey: string;
  platformKey: string;
  processes: AppProcess[];
  /** Concatenated output of every process, for log assertions. */
  output(): string;
  /**
   * Stops the process running `app` (with `signal`, default SIGTERM; SIGKILL for a crash) and
   * starts it again on the same settings and port (embedded mode: the one process). The first
   * process of that app in distributed mode.
   */
  restartService(app: string, signal?: NodeJS.Signals, replica?: number): Promise<void>;
  /** Stops the first process of `app` (or its `replica`-th; embedded mode: the one process), leaving it down. */
  stopService(app: string, signal?: NodeJS.Signals, replica?: number): Promise<void>;
  /** Starts again a process stopped by stopService, on the same settings and port. */
  startService(app: string, replica?: number): Promise<void>;
  stop(): Promise<void>;
}

/** A fresh database on the test PostgreSQL server, dropped by the returned function. */
export async function createTestDatabase(serverUrl = testDatabaseUrl()): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `igw_e2e_${randomBytes(6).toString('hex')}`;
  const admin = new PgClient({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new PgClient({ connectionString: serverUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

export async function startEmbeddedSystem(
  opts: { dataDir?: string; env?: Record<string, string>; port?: number } = {},
): Promise<TestSystem & { dataDir: string; restart(env?: Record<string, string>, signal?: NodeJS.Signals): Promise<void> }> {
  const dataDir = opts.dataDir ?? mkdtempSync(join(tmpdir(), 'igw-e2e-'));
  const adminKey = randomKey('admin');
  const platformKey = randomKey('platform');
  const port = opts.port ?? (await freePorts(1))[0];
  // Tests deliver webhooks to receivers, and reach MCP upstreams, on 127.0.0.1.
  let env = {
    DATA_DIR: dataDir,
    BOOTSTRAP_ADMIN_KEY: adminKey,
    PLATFORM_ADMIN_KEY: platformKey,
    WEBHOOKS_ALLOW_PRIVATE: 'true',
    MCP_UPSTREAMS_ALLOW_PRIVATE: 'true',
    ...opts.env,
  };
  let proc = await startApp('embedded', env, { port: port!, timeoutMs: 90_000 });
  let previous = '';
  const system = {
    mode: 'embedded' as const,
    url: proc.url,
    urls: [proc.url],
    adminKey,
    platformKey,
    dataDir,
    get processes() {
      return [proc];
    },
    output: () => previous + proc.output(),
    /** Restarts the process on the same data, with `changes` applied to its environment from now on. */
    restart: async (changes: Record<string, string> = {}, signal: NodeJS.Signals = 'SIGTERM') => {
      await proc.stop(signal);
      previous += proc.output();
      env = { ...env, ...changes };
      proc = await startApp('embedded', env, { port: port!, timeoutMs: 90_000 });
    },
    restartService: async (_app: string, signal?: NodeJS.Signals) => system.restart({}, signal),
    stopService: async (_app: string, signal?: NodeJS.Signals) => {
      await proc.stop(signal);
    },
    startService: async () => {
      previous += proc.output();
      proc = await startApp('embedded', env, { port: port!, timeoutMs: 90_000 });
    },
    stop: async () => {
      await proc.stop();
      if (!opts.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return system;
}

export async function startDistributedSystem(
  opts: {
    gateways?: number;
    decisionProxies?: number;
    /** The decision-proxy replicas behind one round-robin TCP balancer, as a Kubernetes Service puts them. */
    balanceDecisionProxies?: boolean;
    replicas?: number;
    databaseUrl?: string;
    env?: Record<string, string>;
  } = {},
): Promise<TestSystem & { databaseUrl: string; internalToken: string; balancer?: TcpBalancer }> {
  const db = opts.databaseUrl ? undefined : await createTestDatabase();
  const databaseUrl = opts.databaseUrl ?? db!.url;
  const adminKey = randomKey('admin');
  const platformKey = randomKey('platform');
  const internalToken = randomBytes(32).toString('base64url');
  const gateways = opts.gateways ?? 1;
  // `replicas`: that many processes of every service, each caller balancing over all of them (the
  // service URL settings list them). Otherwise one of each, and gateway i forwards to decision-proxy
  // replica i mod n: two gateways over two replicas show that each replica's read models are exact.
  const replicas = opts.replicas ?? 1;
  const proxies = Math.max(opts.decisionProxies ?? 1, replicas);
  const ports = await freePorts(5 * replicas + proxies + gateways);
  const group = (i: number) => ports.slice(i * replicas, (i + 1) * replicas);
  const [registryPorts, approvalsPorts, evaluatorPorts, issuerPorts, webhooksPorts] = [0, 1, 2, 3, 4].map(group) as number[][];
  const proxyPorts = ports.slice(5 * replicas, 5 * replicas + proxies);
  const gatewayPorts = ports.slice(5 * replicas + proxies);
  const webhookKek = randomBytes(32).toString('base64');
  const mcpUpstreamsKek = randomBytes(32).toString('base64');
  const mandateKek = randomBytes(32).toString('base64');
  const grantKey = testGrantKey();
  const webhookGroup = `webhook-dispatcher.${randomBytes(4).toString('hex')}`;
  const urls = (ps: number[]) => ps.map((p) => `http://127.0.0.1:${p}`).join(',');
  const serviceUrls = {
    POLICY_REGISTRY_URL: urls(registryPorts!),
    APPROVALS_URL: urls(approvalsPorts!),
    INTENT_EVALUATOR_URL: urls(evaluatorPorts!),
    MANDATE_ISSUER_URL: urls(issuerPorts!),
    DECISION_PROXY_URL: replicas > 1 ? urls(proxyPorts) : urls(proxyPorts.slice(0, 1)),
    WEBHOOK_DISPATCHER_URL: urls(webhooksPorts!),
  };
  const common = {
    GATEWAY_MODE: 'distributed',
    DATABASE_URL: databaseUrl,
    KAFKA_BROKERS: testKafkaBrokers(),
    REDIS_URL: testRedisUrl(),
    INTERNAL_AUTH_TOKEN: internalToken,
    HOST: '127.0.0.1',
    ...opts.env,
  };
  const processes: AppProcess[] = [];
  const launches = new Map<AppProcess, { app: string; env: Record<string, string>; port: number }>();
  const launch = async (app: string, env: Record<string, string>, o: { port: number }) => {
    const p = await startApp(app, env, o);
    launches.set(p, { app, env, port: o.port });
    return p;
  };
  const balancer = opts.balanceDecisionProxies ? await startTcpBalancer(proxyPorts.map((port) => ({ host: '127.0.0.1', port: port! }))) : undefined;
  const stop = async () => {
    await Promise.all(processes.map((p) => p.stop()));
    await balancer?.close();
    await db?.drop();
  };
  try {
    // Replicas of one service share its keys (each opens what another sealed, verifies what another signed).
    for (const port of registryPorts!) processes.push(await launch('policy-registry', common, { port }));
    for (const port of approvalsPorts!) processes.push(await launch('approvals', { ...common, ...serviceUrls }, { port }));
    for (const port of evaluatorPorts!) processes.push(await launch('intent-evaluator', { ...common, ...serviceUrls, GRANT_SIGNING_KEY: grantKey }, { port }));
    for (const port of issuerPorts!) processes.push(await launch('mandate-issuer', { ...common, ...serviceUrls, MANDATE_KEK: mandateKek }, { port }));
    for (const port of webhooksPorts!)
      processes.push(
        await launch(
          'webhook-dispatcher',
          { ...common, WEBHOOK_KEK: webhookKek, WEBHOOKS_ALLOW_PRIVATE: 'true', WEBHOOK_CONSUMER_GROUP: webhookGroup },
          { port },
        ),
      );
    for (const port of proxyPorts) {
      // Tests' MCP upstreams listen on 127.0.0.1.
      processes.push(
        await launch('decision-proxy', { MCP_UPSTREAMS_ALLOW_PRIVATE: 'true', ...common, ...serviceUrls, MCP_UPSTREAMS_KEK: mcpUpstreamsKek }, { port: port! }),
      );
    }
    for (const [i, port] of gatewayPorts.entries()) {
      processes.push(
        await launch(
          'api-gateway',
          {
            ...common,
            ...serviceUrls,
            ...(replicas > 1 ? {} : { DECISION_PROXY_URL: balancer ? balancer.url : `http://127.0.0.1:${proxyPorts[i % proxies]}` }),
            BOOTSTRAP_ADMIN_KEY: adminKey,
            PLATFORM_ADMIN_KEY: platformKey,
          },
          { port: port! },
        ),
      );
    }
    // As a Kubernetes Service routes only to ready pods: the system is up when every process is
    // ready (a decision proxy loads its read models behind `/readyz` after it listens).
    await Promise.all(processes.map((p) => waitUntilReady(p)));
  } catch (err) {
    await stop();
    throw err;
  }
  const edges = processes.filter((p) => p.name === 'api-gateway');
  // The `replica`-th process of `app` (0: the first).
  const indexOf = (app: string, replica = 0) => {
    const i = processes.map((p, at) => (p.name === app ? at : -1)).filter((at) => at >= 0)[replica];
    if (i === undefined) throw new Error(`no ${app} process #${replica} in this system`);
    return i;
  };
  return {
    mode: 'distributed',
    url: edges[0]!.url,
    urls: edges.map((p) => p.url),
    adminKey,
    platformKey,
    processes,
    databaseUrl,
    internalToken,
    ...(balancer ? { balancer } : {}),
    output: () => processes.map((p) => p.output()).join('\n'),
    restartService: async (app: string, signal?: NodeJS.Signals, replica?: number) => {
      const i = indexOf(app, replica);
      const old = processes[i]!;
      const how = launches.get(old)!;
      await old.stop(signal);
      processes[i] = await launch(how.app, how.env, { port: how.port });
    },
    stopService: async (app: string, signal?: NodeJS.Signals, replica?: number) => {
      await processes[indexOf(app, replica)]!.stop(signal);
    },
    startService: async (app: string, replica?: number) => {
      const i = indexOf(app, replica);
      const how = launches.get(processes[i]!)!;
      processes[i] = await launch(how.app, how.env, { port: how.port });
    },
    stop,
  };
}

async function waitUntilReady(p: AppProcess, timeoutMs = 60_000): Promise<void> {
  let last = '';
  for (const deadline = Date.now() + timeoutMs; Date.now() < deadline; await new Promise((r) => setTimeout(r, 100))) {
    const res = await fetch(`${p.url}/readyz`, { signal: AbortSignal.timeout(5_000) }).catch((err: Error) => err);
    if (!(res instanceof Error) && res.ok) return;
    last = res instanceof Error ? res.message : `${res.status} ${await res.text().catch(() => '')}`;
  }
  throw new Error(`${p.name} on ${p.url} was not ready within ${timeoutMs} ms: ${last}`);
}
