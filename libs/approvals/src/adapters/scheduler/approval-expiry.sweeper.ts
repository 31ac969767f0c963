import { Inject, Injectable, Logger, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { ExpireApprovalsUseCase } from '../../application/use-cases/expire-approvals.use-case';

export const EXPIRY_SWEEP_OPTIONS = Symbol('EXPIRY_SWEEP_OPTIONS');

export interface ExpirySweepOptions {
  /** Time between sweeps in ms; 0 turns the sweeper off (reads still show overdue requests as expired). */
  intervalMs: number;
}

/**
 * Runs ExpireApprovalsUseCase on a timer from module init to shutdown, so overdue requests are
 * stored as expired and approval.expired goes out. The timer is unref'd (it never keeps the
 * process alive), ticks never overlap, and shutdown waits for a sweep in flight.
 */
@Injectable()
export class ApprovalExpirySweeper implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('approvals');
  private timer: ReturnType<typeof setInterval> | undefined;
  private running: Promise<void> | undefined;
  private failing = false;

  constructor(
    private readonly expireApprovals: ExpireApprovalsUseCase,
    @Inject(EXPIRY_SWEEP_OPTIONS) private readonly options: ExpirySweepOptions,
  ) {}

  onModuleInit(): void {
    this.start();
  }

  async onModuleDestroy(): Promise<void> {
    await this.stop();
  }

  start(): void {
    if (this.timer || !(this.options.intervalMs > 0)) return;
    this.timer = setInterval(() => void this.sweep(), this.options.intervalMs);
    this.timer.unref();
  }

  /** One sweep now; while one is running, the same one is returned. Never rejects. */
  sweep(): Promise<void> {
    this.running ??= this.expireApprovals
      .execute()
      .then(
        (count) => {
          if (this.failing) this.logger.log('approval expiry sweep recovered');
          this.failing = false;
          if (count > 0) this.logger.debug?.(`expired ${count} approval request(s)`);
        },
        (err: unknown) => {
          // Once per outage, not once per tick.
          if (!this.failing) this.logger.warn(`approval expiry sweep failed: ${(err as Error)?.message ?? String(err)}`);
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
