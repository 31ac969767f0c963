import type { Admin, Kafka } from 'kafkajs';

/** Creates missing topics up front: subscribing to a topic that does not exist yet fails in kafkajs. */
export class KafkaTopics {
  private admin?: Admin;
  private readonly known = new Set<string>();
  private chain: Promise<unknown> = Promise.resolve();

  constructor(private readonly kafka: Kafka) {}

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
        // Broker defaults for partitions and replication.
        await admin.createTopics({ topics: toCreate.map((topic) => ({ topic })), waitForLeaders: true });
      } catch (err) {
        // Another instance may have created them meanwhile; only a topic still missing is an error.
        const now = new Set(await admin.listTopics());
        if (toCreate.some((t) => !now.has(t))) throw err;
      }
    }
    for (const t of missing) this.known.add(t);
  }
}
