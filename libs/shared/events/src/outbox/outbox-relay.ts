import type { EventEnvelope } from '@igw/contracts';
import type { CommittedOutboxRow, EventBus } from '../ports/event-bus.port';

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
  /**
   * True when this relay is the outbox's only reader and every writer is in its process (PGlite):
   * rows handed over after their commit may then be published without reading them back.
   */
  readonly exclusive?: boolean;
  /** Marks rows published by seq (rows handed over, then published). */
  markPublished?(seqs: readonly string[]): Promise<void>;
}

export interface RelayLogger {
  warn(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
}

export interface OutboxRelayOptions {
  pollMs: number;
  batchSize?: number;
  name: string;
  logger?: RelayLogger;
  purgeEveryMs?: number;
  keepHours?: number;
  /** Exclusive outbox: longest a published row waits to be marked so (default 100 ms). */
  markDelayMs?: number;
  /** Exclusive outbox in sync: the safety-net poll's interval (default 1000 ms, never below pollMs). */
  syncedPollMs?: number;
}

/** Seqs waiting to be marked before a mark is written at once. */
const MARK_BATCH = 500;

/**
 * Moves committed outbox rows to the bus, oldest first, at least once. Polls, and is nudged
 * right after local commits so events leave in milliseconds. While the bus (or the database)
 * is down it backs off and keeps the rows; nothing is dropped.
 *
 * Hand-over (exclusive outboxes only, i.e. PGlite): once a scan has found the outbox empty, the
 * relay is "in sync", and rows a commit hands over are published as they are, with no read back;
 * their seqs are marked published together, at most `markDelayMs` later. Any plain nudge (a writer
 * that does not hand over), refused hand-over or failure leaves sync, and the next run scans the
 * table again (after writing the pending marks, so nothing is read back twice). A crash between a
 * publication and its mark publishes the row again at start: at least once, as always.
 */
export class OutboxRelay {
  private timer?: NodeJS.Timeout;
  private running = false;
  private draining?: Promise<void>;
  private again = false;
  private failures = 0;
  /** The table may hold rows this relay was not handed: the next run must read it. */
  private mustScan = true;
  /** Every unpublished row of the outbox is in `handed` (exclusive outboxes only). */
  private synced = false;
  private handed: CommittedOutboxRow[] = [];
  private unmarked: string[] = [];
  private marking?: Promise<void>;
  private markTimer?: NodeJS.Timeout;

  constructor(
    private readonly source: OutboxSource,
    private readonly bus: EventBus,
    private readonly options: OutboxRelayOptions,
  ) {}

  private purgeTimer?: NodeJS.Timeout;

  start(): void {
    this.running = true;
    this.schedule(0, true);
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
    this.mustScan = true;
    this.synced = false;
    if (!this.running) return;
    if (this.draining) {
      this.again = true;
      return;
    }
    this.schedule(0);
  }

  /** Rows a commit of this process just wrote, in seq order: published without a read back while in sync. */
  handOver(rows: readonly CommittedOutboxRow[]): void {
    if (rows.length === 0) return;
    if (!this.synced || !this.running) return this.nudge();
    this.handed.push(...rows);
    // A run under way takes these before it ends (or schedules one right after it).
    if (!this.draining) this.schedule(0);
  }

  /** Drains whatever is committed now; resolves when the outbox is empty or the bus fails. */
  async flush(): Promise<void> {
    while (this.draining) await this.draining;
    this.mustScan = true;
    await this.runOnce();
  }

  async stop(): Promise<void> {
    this.running = false;
    if (this.timer) clearTimeout(this.timer);
    if (this.purgeTimer) clearInterval(this.purgeTimer);
    while (this.draining) await this.draining.catch(() => undefined);
    // Published rows are marked on the way out; rows handed over and not published stay in the table.
    this.handed = [];
    this.synced = false;
    this.mustScan = true;
    await this.writeMarks().catch(() => undefined);
  }

  /** `poll`: the run is the periodic safety net, so it reads the table (rows no one announced). */
  private schedule(ms: number, poll = false): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.tick(poll), ms);
    this.timer.unref?.();
  }

  private async tick(poll: boolean): Promise<void> {
    if (!this.running || this.draining) return;
    if (poll) this.mustScan = true;
    let delay = this.options.pollMs;
    try {
      await this.runOnce();
      if (this.failures > 0) this.options.logger?.info({ relay: this.options.name }, 'outbox relay recovered');
      this.failures = 0;
      if (this.synced) delay = Math.max(delay, this.options.syncedPollMs ?? 1000);
    } catch (err) {
      this.failures++;
      delay = Math.min(5000, 100 * 2 ** Math.min(this.failures, 6));
      if (this.failures === 1 || this.failures % 20 === 0) {
        this.options.logger?.warn(
          { relay: this.options.name, err: String((err as Error)?.message ?? err), failures: this.failures },
          'outbox relay cannot publish; retrying',
        );
      }
      if (this.running) this.schedule(delay, true);
      return;
    }
    if (!this.running) return;
    // Work that arrived while this run was finishing goes now; otherwise the next poll.
    if (this.again || this.handed.length > 0) {
      this.again = false;
      this.schedule(0);
    } else {
      this.schedule(delay, true);
    }
  }

  private async runOnce(): Promise<void> {
    const work = (async () => {
      await this.publishHanded();
      if (!this.mustScan) return;
      await this.scan();
    })();
    this.draining = work;
    try {
      await work;
    } finally {
      this.draining = undefined;
    }
  }

  /** The rows handed over, in order; on failure they are left to the table (and sync is lost). */
  private async publishHanded(): Promise<void> {
    const batch = this.options.batchSize ?? 200;
    while (this.handed.length > 0) {
      const rows = this.handed.splice(0, batch);
      try {
        await this.publish(rows);
      } catch (err) {
        this.handed = [];
        this.synced = false;
        this.mustScan = true;
        throw err;
      }
      this.unmarked.push(...rows.map((r) => r.seq));
      this.scheduleMarks();
    }
  }

  /** Reads the table until it is empty; in sync afterwards when the outbox is exclusive and no one nudged meanwhile. */
  private async scan(): Promise<void> {
    const batch = this.options.batchSize ?? 200;
    // Out of sync while reading: a hand-over meanwhile becomes a nudge (its rows may be in this read).
    this.synced = false;
    this.mustScan = false;
    try {
      // Rows published from a hand-over must not be read back as unpublished.
      await this.writeMarks();
      for (;;) {
        const n = await this.source.drain(batch, (rows) => this.publish(rows));
        if (n < batch) break;
      }
    } catch (err) {
      this.mustScan = true;
      throw err;
    }
    this.synced = this.source.exclusive === true && this.source.markPublished !== undefined && !this.mustScan;
  }

  private publish(rows: readonly OutboxRowLike[]): Promise<void> {
    const keys = new Map(rows.map((r) => [r.id, r.key]));
    return this.bus.publish(
      rows.map((r) => r.envelope),
      (e) => keys.get(e.id) ?? e.org_id,
    );
  }

  private scheduleMarks(): void {
    if (this.unmarked.length >= MARK_BATCH) {
      void this.writeMarks().catch((err: unknown) => this.markFailed(err));
      return;
    }
    if (this.markTimer) return;
    this.markTimer = setTimeout(() => {
      this.markTimer = undefined;
      this.writeMarks().catch((err: unknown) => this.markFailed(err));
    }, this.options.markDelayMs ?? 100);
    this.markTimer.unref?.();
  }

  /** Writes every pending mark (one statement); failed marks are kept for the next attempt. */
  private async writeMarks(): Promise<void> {
    while (this.marking) await this.marking.catch(() => undefined);
    if (this.markTimer) clearTimeout(this.markTimer);
    this.markTimer = undefined;
    const seqs = this.unmarked.splice(0);
    const mark = this.source.markPublished;
    if (seqs.length === 0 || !mark) return;
    this.marking = mark.call(this.source, seqs).catch((err: unknown) => {
      this.unmarked.unshift(...seqs);
      throw err;
    });
    try {
      await this.marking;
    } finally {
      this.marking = undefined;
    }
  }

  /** A mark that failed is retried a second later (or before the next read of the table). */
  private markFailed(err: unknown): void {
    this.options.logger?.warn({ relay: this.options.name, err: String((err as Error)?.message ?? err) }, 'outbox relay cannot mark rows published; retrying');
    if (!this.running || this.markTimer) return;
    this.markTimer = setTimeout(() => {
      this.markTimer = undefined;
      this.writeMarks().catch((e: unknown) => this.markFailed(e));
    }, 1000);
    this.markTimer.unref?.();
  }
}
