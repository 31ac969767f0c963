import { startKafkaInstance, type KafkaInstance } from '../infra/kafka-instance';
import { startTcpFaultProxy, type TcpFaultProxy } from '../infra/tcp-fault-proxy';
import { createTestDatabase, startDistributedSystem, testDatabaseUrl, testRedisUrl } from './system';

export type DistributedTestSystem = Awaited<ReturnType<typeof startDistributedSystem>>;

/**
 * A distributed system whose dependencies a test can take away while it runs: every process
 * reaches PostgreSQL and Redis through a TCP fault proxy the test controls, and Kafka is a private
 * broker the test stops and starts (Kafka clients reconnect to the advertised listener after
 * bootstrap, so a proxy in front of the shared broker would be bypassed). The shared servers are
 * never stopped.
 */
export interface FaultableSystem {
  sys: DistributedTestSystem;
  /** In front of the shared PostgreSQL: `cut()` / `blackhole()` take the database away from every process. */
  postgres: TcpFaultProxy;
  /** In front of the shared Redis (the version board, rate limits, auth epochs). */
  redis: TcpFaultProxy;
  kafka: KafkaInstance;
  /** The system's database on the real server (not through the proxy): how the test checks the store. */
  databaseUrl: string;
  stop(): Promise<void>;
}

const hostPort = (url: string) => {
  const u = new URL(url);
  return { host: u.hostname === 'localhost' ? '127.0.0.1' : u.hostname, port: Number(u.port) };
};

export async function startFaultableSystem(opts: { env?: Record<string, string> } = {}): Promise<FaultableSystem> {
  const owned: Array<() => Promise<void>> = [];
  const stopAll = async () => {
    for (const stop of owned.splice(0).reverse()) await stop().catch(() => undefined);
  };
  try {
    const [db, kafka] = await Promise.all([createTestDatabase(), startKafkaInstance()]);
    owned.push(
      () => db.drop(),
      () => kafka.destroy(),
    );
    const postgres = await startTcpFaultProxy(hostPort(testDatabaseUrl()));
    owned.push(() => postgres.close());
    const redis = await startTcpFaultProxy(hostPort(testRedisUrl()));
    owned.push(() => redis.close());
    const sys = await startDistributedSystem({
      databaseUrl: postgres.rewrite(db.url),
      env: { REDIS_URL: redis.rewrite(testRedisUrl()), KAFKA_BROKERS: kafka.brokers, ...opts.env },
    });
    // Processes first, then the dependencies they hold connections to.
    owned.push(() => sys.stop());
    return { sys, postgres, redis, kafka, databaseUrl: db.url, stop: stopAll };
  } catch (err) {
    await stopAll();
    throw err;
  }
}
