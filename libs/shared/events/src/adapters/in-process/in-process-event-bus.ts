import type { EventEnvelope } from '@igw/contracts';
import { DependencyUnavailableError } from '@igw/kernel';
import type { EventBus, Subscription, TransientErrorTest } from '../../ports/event-bus.port';
import { endSpans, startPublishSpan, withConsumeSpan } from '../../trace-links';

const IN_PROCESS = 'in-process';

/**
 * The embedded bus. `publish` resolves only after every subscribed group has handled the
 * events, so the outbox row stays unpublished (and is retried) until its effects exist:
 * at-least-once, like Kafka, with no broker. An event a handler fails on `maxAttempts` times in a
 * row for a reason that is not an outage is handed to the subscription's `onPoison` (a dead
 * letter) and counts as handled, so it never holds up the events behind it in its outbox.
 */
export class InProcessEventBus implements EventBus {
  private readonly subscriptions: Subscription[] = [];
  private running = false;

  private readonly isTransient: TransientErrorTest;

  constructor(
    private readonly options: {
      maxAttempts?: number;
      onHandlerError?: (group: string, event: EventEnvelope, err: unknown) => void;
      /** An outage: the event is retried later, never set aside (default: DependencyUnavailableError). */
      isTransient?: TransientErrorTest;
    } = {},
  ) {
    this.isTransient = options.isTransient ?? ((err) => err instanceof DependencyUnavailableError);
  }

  async publish(events: EventEnvelope[]): Promise<void> {
    for (const event of events) {
      // The trace the event was created in (tracing on) continues into each group's handling, as over Kafka.
      const headers: Record<string, string> = {};
      const span = startPublishSpan(event, headers, IN_PROCESS);
      try {
        for (const sub of this.subscriptions) {
          if (!sub.topics.includes(event.type)) continue;
          await withConsumeSpan(event.type, sub.group, headers, () => this.deliver(sub, event), IN_PROCESS);
        }
      } catch (err) {
        endSpans([span], err);
        throw err;
      }
      endSpans([span]);
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
        if (attempt >= maxAttempts) {
          if (!sub.onPoison || this.isTransient(err)) throw err;
          // If recording it fails, the event stays unpublished and is tried again later.
          await sub.onPoison(event, err);
          return;
        }
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
