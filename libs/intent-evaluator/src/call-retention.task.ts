import { IntSetting } from '@igw/config';
import { systemClock, type Clock } from '@igw/kernel';
import { openPostgresDatabase } from '@igw/persistence';
import { MigrateSettings } from '@igw/runtime';
import { EVALUATOR_SCHEMA } from './adapters/prisma/evaluator-prisma.client';
import { SqlKeptCalls } from './adapters/prisma/sql-kept-calls';
import { PurgeExpiredCallsUseCase } from './application/use-cases/purge-expired-calls.use-case';

/** The purge-calls task's settings (the chart's CronJob): the migrate Job's (database, logs) and the window. */
export class PurgeCallsSettings extends MigrateSettings {
  /**
   * Days the call an evaluation decided (tool call, conversation context) is kept, for history's
   * `include=call` and teaching from it (DESIGN 6.16); 0 keeps none and clears what was kept.
   */
  @IntSetting('CALL_RETENTION_DAYS', 0, 366)
  CALL_RETENTION_DAYS: number = 7;
}

/** Deletes the evaluator's kept calls past the window, every org; how many were deleted. */
export async function purgeEvaluatorCalls(settings: PurgeCallsSettings, clock: Clock = systemClock): Promise<number> {
  const db = openPostgresDatabase(settings.DATABASE_URL, EVALUATOR_SCHEMA, 1);
  try {
    // maxBytes plays no part in a purge.
    return await new PurgeExpiredCallsUseCase(new SqlKeptCalls(db), { days: settings.CALL_RETENTION_DAYS, maxBytes: 0 }, clock).execute();
  } finally {
    await db.close();
  }
}
