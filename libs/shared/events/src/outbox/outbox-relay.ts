import type { EventEnvelope } from '@igw/contracts';
import type { EventBus } from '../ports/event-bus.port';

export interface OutboxRowLike {
  id: string;
  key: string;
  envelope: EventEnvelope;
}

/** The outbox as the relay sees it (implemented over SQL in @igw/persistence). */
export interface OutboxSource {
  drain(limit: number, publish: (rows: OutboxRowLike[]) => Promise<void>): Promise<number>;
  /** Removes rows published more than `olderThanHours` ago (kept a while for inspection). */
  purgePublished?(olderThanHours: number): Promise<void>;
}

export interface RelayLogger {
  warn(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
}

/**
 * Moves committed outbox rows to the bus, oldest first, at least once. Polls, and is nudged
 * right after local commits so events leave in milliseconds. While the bus (or the database)
 * is down it backs off and keeps the rows; nothing is dropped.
 */
export class OutboxRelay {
  private timer?: NodeJS.Timeout;
  private running = false;
  private draining?: Promise<void>;
  private again = false;
  private failures = 0;

  constructor(
    private readonly source: OutboxSource,
    private readonly bus: EventBus,
    private readonly options: { pollMs: number; batchSize?: number; name: string; logger?: RelayLogger; purgeEveryMs?: number; keepHours?: number },
  ) {}

  private purgeTimer?: NodeJS.Timeout;

  start(): void {
    this.running = true;
    this.schedule(0);
    const purge = this.source.purgePublished?.bind(this.source);
    if (purge) {
      this.purgeTimer = setInterval(() => {
        purge(this.options.keepHours ?? 72).catch((err: unknown) =>
          this.options.logger?.warn({ relay: this.options.name, err: String((err as Error)?.message ?? err) }, 'outbox purge failed'),
        );
      }, this.options.purgeEveryMs ?? 3_600_000);
      this.purgeTimer.unref?.();
    }
  }

  /** Ask for a drain now (after a commit). Coalesces with a drain already under way. */
  nudge(): void {
    if (!this.running) return;
    if (this.draining) {
      this.again = true;
      return;
    }
    this.schedule(0);
  }

  /** Drains whatever is committed now; resolves when the outbox is empty or the bus fails. */
  async flush(): Promise<void> {
    while (this.draining) await this.draining;
    await this.runOnce();
  }

  async stop(): Promise<void> {
    this.running = false;
    if (this.timer) clearTimeout(this.timer);
    if (this.purgeTimer) clearInterval(this.purgeTimer);
    while (this.draining) await this.draining.catch(() => undefined);
  }

  private schedule(ms: number): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.tick(), ms);
    this.timer.unref?.();
  }

  private async tick(): Promise<void> {
    if (!this.running || this.draining) return;
    let delay = this.options.pollMs;
    try {
      await this.runOnce();
      if (this.failures > 0) this.options.logger?.info({ relay: this.options.name }, 'outbox relay recovered');
      this.failures = 0;
    } catch (err) {
      this.failures++;
      delay = Math.min(5000, 100 * 2 ** Math.min(this.failures, 6));
      if (this.failures === 1 || this.failures % 20 === 0) {
        this.options.logger?.warn(
          { relay: this.options.name, err: String((err as Error)?.message ?? err), failures: this.failures },
          'outbox relay cannot publish; retrying',
        );
      }
    }
    if (this.again) {
      this.again = false;
      delay = 0;
    }
    if (this.running) this.schedule(delay);
  }

  private async runOnce(): Promise<void> {
    const batch = this.options.batchSize ?? 200;
    const work = (async () => {
      for (;;) {
        const n = await this.source.drain(batch, (rows) => {
          const keys = new Map(rows.map((r) => [r.id, r.key]));
          return this.bus.publish(
            rows.map((r) => r.envelope),
            (e) => keys.get(e.id) ?? e.org_id,
          );
        });
        if (n < batch) return;
      }
    })();
    this.draining = work;
    try {
      await work;
    } finally {
      this.draining = undefined;
    }
  }
}
