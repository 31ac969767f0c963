import type { EventEnvelope } from '@igw/contracts';
import type { EventBus, Subscription } from '../../ports/event-bus.port';

/**
 * The embedded bus. `publish` resolves only after every subscribed group has handled the
 * events, so the outbox row stays unpublished (and is retried) until its effects exist:
 * at-least-once, like Kafka, with no broker.
 */
export class InProcessEventBus implements EventBus {
  private readonly subscriptions: Subscription[] = [];
  private running = false;

  constructor(private readonly options: { maxAttempts?: number; onHandlerError?: (group: string, event: EventEnvelope, err: unknown) => void } = {}) {}

  async publish(events: EventEnvelope[]): Promise<void> {
    for (const event of events) {
      for (const sub of this.subscriptions) {
        if (!sub.topics.includes(event.type)) continue;
        await this.deliver(sub, event);
      }
    }
  }

  private async deliver(sub: Subscription, event: EventEnvelope): Promise<void> {
    const maxAttempts = this.options.maxAttempts ?? 3;
    for (let attempt = 1; ; attempt++) {
      try {
        await sub.handler(event);
        return;
      } catch (err) {
        this.options.onHandlerError?.(sub.group, event, err);
        if (attempt >= maxAttempts) throw err;
        await new Promise((r) => setTimeout(r, 20 * attempt));
      }
    }
  }

  async subscribe(subscription: Subscription): Promise<void> {
    this.subscriptions.push(subscription);
  }

  async start(): Promise<void> {
    this.running = true;
  }

  async stop(): Promise<void> {
    this.running = false;
  }

  async healthy(): Promise<boolean> {
    return this.running;
  }
}
