import { Inject, Injectable, Logger, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { PeriodicTask } from '@igw/kernel';
import { PurgeExpiredCallsUseCase } from '../../application/use-cases/purge-expired-calls.use-case';
import { CALL_PURGE_INTERVAL } from '../../application/retention/call-retention.options';

/**
 * Runs the call-retention purge in this process (embedded mode, or a deployment without the
 * chart's CronJob): at start, then every interval; 0 turns it off.
 */
@Injectable()
export class CallRetentionPurger implements OnModuleInit, OnModuleDestroy {
  private readonly task: PeriodicTask;

  constructor(purge: PurgeExpiredCallsUseCase, @Inject(CALL_PURGE_INTERVAL) intervalMs: number) {
    const logger = new Logger('intent-evaluator');
    this.task = new PeriodicTask(
      'call retention purge',
      async () => {
        const count = await purge.execute();
        if (count > 0) logger.log(`purged ${count} call(s) past the retention window`);
      },
      { intervalMs, runAtStart: true },
      logger,
    );
  }

  onModuleInit(): void {
    this.task.start();
  }

  async onModuleDestroy(): Promise<void> {
    await this.task.stop();
  }

  /** One purge now (never rejects). */
  purgeNow(): Promise<void> {
    return this.task.runOnce();
  }
}
