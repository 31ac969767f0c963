import { Inject, Injectable, Logger, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { PeriodicTask } from '@igw/kernel';
import { ExpireApprovalsUseCase } from '../../application/use-cases/expire-approvals.use-case';

export const EXPIRY_SWEEP_OPTIONS = Symbol('EXPIRY_SWEEP_OPTIONS');

export interface ExpirySweepOptions {
  /** Time between sweeps in ms; 0 turns the sweeper off (reads still show overdue requests as expired). */
  intervalMs: number;
}

/**
 * Runs ExpireApprovalsUseCase on a timer (the kernel's PeriodicTask) from module init to
 * shutdown, so overdue requests are stored as expired and approval.expired goes out.
 */
@Injectable()
export class ApprovalExpirySweeper implements OnModuleInit, OnModuleDestroy {
  private readonly task: PeriodicTask;

  constructor(expireApprovals: ExpireApprovalsUseCase, @Inject(EXPIRY_SWEEP_OPTIONS) options: ExpirySweepOptions) {
    const logger = new Logger('approvals');
    this.task = new PeriodicTask(
      'approval expiry sweep',
      async () => {
        const count = await expireApprovals.execute();
        if (count > 0) logger.debug?.(`expired ${count} approval request(s)`);
      },
      options,
      logger,
    );
  }

  onModuleInit(): void {
    this.start();
  }

  async onModuleDestroy(): Promise<void> {
    await this.stop();
  }

  start(): void {
    this.task.start();
  }

  /** One sweep now; while one is running, the same one is returned. Never rejects. */
  sweep(): Promise<void> {
    return this.task.runOnce();
  }

  stop(): Promise<void> {
    return this.task.stop();
  }
}
