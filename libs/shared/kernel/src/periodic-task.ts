/** Where a periodic task reports trouble: once per outage, not once per tick. */
export interface PeriodicTaskLog {
  warn(message: string): void;
  log(message: string): void;
}

export interface PeriodicTaskOptions {
  /** Time between runs in ms; 0 turns the task off. */
  intervalMs: number;
  /** Also run once as soon as it starts (a purge after a long stop should not wait an interval). */
  runAtStart?: boolean;
}

/**
 * One job on a timer (approval expiry, call retention): the timer is unref'd so it never keeps
 * the process alive, runs never overlap, a failing run is retried on the next tick, and `stop`
 * waits for the run in flight so shutdown never cuts a batch in half.
 */
export class PeriodicTask {
  private timer: ReturnType<typeof setInterval> | undefined;
  private running: Promise<void> | undefined;
  private failing = false;

  constructor(
    private readonly name: string,
    private readonly job: () => Promise<unknown>,
    private readonly options: PeriodicTaskOptions,
    private readonly logger: PeriodicTaskLog,
  ) {}

  start(): void {
    if (this.timer || !(this.options.intervalMs > 0)) return;
    this.timer = setInterval(() => void this.runOnce(), this.options.intervalMs);
    this.timer.unref();
    if (this.options.runAtStart) void this.runOnce();
  }

  /** One run now; while one is running, the same one is returned. Never rejects. */
  runOnce(): Promise<void> {
    this.running ??= this.job()
      .then(
        () => {
          if (this.failing) this.logger.log(`${this.name} recovered`);
          this.failing = false;
        },
        (err: unknown) => {
          if (!this.failing) this.logger.warn(`${this.name} failed: ${(err as Error)?.message ?? String(err)}`);
          this.failing = true;
        },
      )
      .finally(() => {
        this.running = undefined;
      });
    return this.running;
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
  }
}
