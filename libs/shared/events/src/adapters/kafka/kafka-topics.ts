import { Kafka, logLevel, type Admin } from 'kafkajs';
import { kafkaSecurity, type KafkaClientSecurity } from './kafka-support';

/** Creates missing topics up front: subscribing to a topic that does not exist yet fails in kafkajs. */
export class KafkaTopics {
  private admin?: Admin;
  private readonly known = new Set<string>();
  private chain: Promise<unknown> = Promise.resolve();

  /** Partitions and replication factor of topics it creates (-1: the broker's defaults). */
  constructor(
    private readonly kafka: Kafka,
    private readonly layout: { numPartitions: number; replicationFactor: number } = { numPartitions: -1, replicationFactor: -1 },
  ) {}

  ensure(topics: string[]): Promise<void> {
    // One at a time, so groups starting together do not race each other to create a topic.
    const run = this.chain.then(() => this.createMissing(topics));
    this.chain = run.catch(() => undefined);
    return run;
  }

  /** The admin client, connected on first use (also for reading offsets). */
  async connectedAdmin(): Promise<Admin> {
    if (!this.admin) {
      const admin = this.kafka.admin();
      await admin.connect();
      this.admin = admin;
    }
    return this.admin;
  }

  disconnect(): Promise<void> | undefined {
    return this.admin?.disconnect();
  }

  private async createMissing(topics: string[]): Promise<void> {
    const missing = topics.filter((t) => !this.known.has(t));
    if (missing.length === 0) return;
    const admin = await this.connectedAdmin();
    const existing = new Set(await admin.listTopics());
    const toCreate = missing.filter((t) => !existing.has(t));
    if (toCreate.length > 0) {
      try {
        await admin.createTopics({ topics: toCreate.map((topic) => ({ topic, ...this.layout })), waitForLeaders: true });
      } catch (err) {
        // Another instance may have created them meanwhile; only a topic still missing is an error.
        const now = new Set(await admin.listTopics());
        if (toCreate.some((t) => !now.has(t))) throw err;
      }
    }
    for (const t of missing) this.known.add(t);
  }
}

/**
 * Creates the topics that are missing on `brokers` (a provisioning task: the chart's Job). Returns
 * the ones it created; existing topics are left as they are.
 */
export async function provisionTopics(
  connection: { brokers: string[] } & KafkaClientSecurity,
  topics: readonly string[],
  layout: { numPartitions: number; replicationFactor: number },
): Promise<string[]> {
  const kafka = new Kafka({
    brokers: connection.brokers,
    ...kafkaSecurity(connection),
    clientId: 'igw-kafka-topics',
    logLevel: logLevel.NOTHING,
    retry: { retries: 8 },
  });
  const admin = kafka.admin();
  await admin.connect();
  try {
    const before = new Set(await admin.listTopics());
    await new KafkaTopics(kafka, layout).ensure([...topics]);
    return topics.filter((t) => !before.has(t));
  } finally {
    await admin.disconnect();
  }
}
