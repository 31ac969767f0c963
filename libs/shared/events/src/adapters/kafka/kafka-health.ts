import { Kafka, logLevel, type Admin } from 'kafkajs';
import { kafkaSecurity, withTimeout, type KafkaClientSecurity } from './kafka-support';

const HEALTH_CACHE_MS = 1000;
const HEALTH_TIMEOUT_MS = 1500;

/** Broker reachability, cached for a second; its own client without retries so probes answer fast. */
export class KafkaHealthProbe {
  private readonly kafka: Kafka;
  private probe?: Admin;
  private health?: { at: number; ok: boolean };
  private check?: Promise<boolean>;

  constructor(clientId: string, brokers: string[], security: KafkaClientSecurity = {}) {
    this.kafka = new Kafka({
      clientId: `${clientId}-health`,
      brokers,
      ...kafkaSecurity(security),
      logLevel: logLevel.NOTHING,
      connectionTimeout: 1000,
      requestTimeout: HEALTH_TIMEOUT_MS,
      retry: { retries: 0 },
    });
  }

  healthy(): Promise<boolean> {
    if (this.health && Date.now() - this.health.at < HEALTH_CACHE_MS) return Promise.resolve(this.health.ok);
    this.check ??= this.describeCluster()
      .then((ok) => {
        this.health = { at: Date.now(), ok };
        return ok;
      })
      .finally(() => (this.check = undefined));
    return this.check;
  }

  disconnect(): Promise<void> | undefined {
    return this.probe?.disconnect();
  }

  private async describeCluster(): Promise<boolean> {
    try {
      await withTimeout(
        (async () => {
          if (!this.probe) {
            this.probe = this.kafka.admin();
            await this.probe.connect();
          }
          await this.probe.describeCluster();
        })(),
        HEALTH_TIMEOUT_MS,
        () => 'health probe timed out',
      );
      return true;
    } catch {
      // A fresh admin next time: kafkajs does not always recover a client whose broker vanished.
      const probe = this.probe;
      this.probe = undefined;
      void probe?.disconnect().catch(() => undefined);
      return false;
    }
  }
}
