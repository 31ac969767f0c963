import { Inject, Injectable, Logger, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { PeriodicTask } from '@igw/kernel';
import { PurgeExpiredDecisionCallsUseCase } from '../../application/use-cases/purge-expired-decision-calls.use-case';
import { DECISION_CALL_PURGE_INTERVAL } from '../../application/retention/call-retention.options';

/**
 * Runs the mandate path's call-retention purge in this process (embedded mode, or a deployment
 * without the chart's CronJob): at start, then every interval; 0 turns it off.
 */
@Injectable()
export class DecisionCallRetentionPurger implements OnModuleInit, OnModuleDestroy {
  private readonly task: PeriodicTask;

  constructor(purge: PurgeExpiredDecisionCallsUseCase, @Inject(DECISION_CALL_PURGE_INTERVAL) intervalMs: number) {
    const logger = new Logger('decision-proxy');
    this.task = new PeriodicTask(
      'decision call retention purge',
      async () => {
        const count = await purge.execute();
        if (count > 0) logger.log(`purged ${count} decision call(s) past the retention window`);
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
}
