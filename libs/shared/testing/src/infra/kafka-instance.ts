import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
// tools/infra/kafka.js is a plain CommonJS script (Jest's untransformed globalSetup and the infra
// CLI load it too), not an Nx project, so there is no alias to import it by.
// eslint-disable-next-line @nx/enforce-module-boundaries
import { isKafkaReachable, startKafka, type KafkaBroker } from '../../../../../tools/infra/kafka.js';
import { freePorts } from './free-port';
import type { OwnedInstance } from './owned-instance';

/**
 * A Kafka broker owned by one test (free ports, own data dir), for tests that stop the broker
 * under a running client. Everything else should use the shared TEST_KAFKA_BROKERS. `stop` is
 * SIGTERM and waits for exit (topics and messages survive); `destroy` deletes the data dir.
 */
export interface KafkaInstance extends OwnedInstance {
  /** `127.0.0.1:<port>` */
  brokers: string;
  dataDir: string;
}

export { isKafkaReachable };

export async function startKafkaInstance(): Promise<KafkaInstance> {
  const [port, controllerPort] = await freePorts(2);
  const baseDir = mkdtempSync(join(tmpdir(), 'igw-kafka-'));
  const dataDir = join(baseDir, 'data');
  const logFile = join(baseDir, 'broker.log');
  let broker: KafkaBroker | null = null;
  let destroyed = false;

  const start = async () => {
    if (destroyed) throw new Error('kafka instance was destroyed');
    if (broker) return;
    broker = await startKafka({ port, controllerPort, dataDir, logFile });
  };
  const stop = async () => {
    const running = broker;
    broker = null;
    await running?.stop();
  };
  const destroy = async () => {
    if (destroyed) return;
    destroyed = true;
    await stop();
    rmSync(baseDir, { recursive: true, force: true });
  };

  try {
    await start();
  } catch (err) {
    await destroy();
    throw err;
  }
  return { brokers: `127.0.0.1:${port}`, port, dataDir, logFile, start, stop, destroy };
}
