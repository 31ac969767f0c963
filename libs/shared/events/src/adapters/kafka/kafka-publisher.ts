import type { EventEnvelope } from '@igw/contracts';
import { Partitioners, type Kafka, type Message, type Producer } from 'kafkajs';
import type { KafkaTopics } from './kafka-topics';
import { withTimeout } from './kafka-support';
import { endSpans, startPublishSpan } from '../../trace-links';

/**
 * The one idempotent producer (acks=all), keyed by org (or the caller's key) so an org's events
 * stay ordered in one partition.
 */
export class KafkaPublisher {
  private readonly producer: Producer;
  private ready?: Promise<void>;
  /** Publishes run one at a time: an idempotent producer must not interleave sequence numbers. */
  private chain: Promise<unknown> = Promise.resolve();

  constructor(
    kafka: Kafka,
    private readonly topics: KafkaTopics,
    private readonly timeoutMs: number,
  ) {
    this.producer = kafka.producer({
      idempotent: true,
      maxInFlightRequests: 1,
      allowAutoTopicCreation: true,
      createPartitioner: Partitioners.DefaultPartitioner,
    });
  }

  async publish(events: EventEnvelope[], key?: (e: EventEnvelope) => string): Promise<void> {
    const byTopic = new Map<string, Message[]>();
    const spans: ReturnType<typeof startPublishSpan>[] = [];
    for (const e of events) {
      const messages = byTopic.get(e.type) ?? [];
      const headers: Record<string, string> = { 'event-type': e.type };
      spans.push(startPublishSpan(e, headers));
      messages.push({ key: key ? key(e) : e.org_id, value: JSON.stringify(e), headers });
      byTopic.set(e.type, messages);
    }
    const topicMessages = [...byTopic].map(([topic, messages]) => ({ topic, messages }));

    const send = this.chain.then(async () => {
      await this.connect();
      // Brokers in production often refuse to auto-create topics: create ours explicitly.
      await this.topics.ensure([...byTopic.keys()]);
      await this.producer.sendBatch({ acks: -1, topicMessages });
    });
    // If the budget runs out while kafkajs is still retrying, the send may yet land: a duplicate
    // at worst, which consumers absorb by event id. The outbox keeps the rows and tries again.
    const bounded = withTimeout(send, this.timeoutMs, () => `Kafka publish of ${events.length} event(s) timed out after ${this.timeoutMs} ms`);
    // The chain survives a failed send, and moves on after the budget even if kafkajs is still
    // retrying an old one, so one stuck send cannot hold every later publish hostage.
    this.chain = bounded.catch(() => undefined);
    try {
      await bounded;
    } catch (err) {
      endSpans(spans, err);
      throw err;
    }
    endSpans(spans);
  }

  /** The send in flight, if any (settles within the publish budget). */
  drained(): Promise<unknown> {
    return this.chain;
  }

  disconnect(): Promise<void> {
    return this.producer.disconnect();
  }

  private connect(): Promise<void> {
    this.ready ??= this.producer.connect().catch((err: unknown) => {
      this.ready = undefined;
      throw err;
    });
    return this.ready;
  }
}
