import { systemClock, type Clock } from '@igw/kernel';
import { openPostgresDatabase } from '@igw/persistence';
import { SqlDecisionCalls } from './adapters/sql/sql-decision-calls';
import { PurgeExpiredDecisionCallsUseCase } from './application/use-cases/purge-expired-decision-calls.use-case';
import { DECISION_PROXY_SCHEMA } from './decision-proxy.module';

/** Deletes the decision proxy's kept calls past the window, every org (the purge-calls task); how many. */
export async function purgeDecisionCalls(settings: { DATABASE_URL: string; CALL_RETENTION_DAYS: number }, clock: Clock = systemClock): Promise<number> {
  const db = openPostgresDatabase(settings.DATABASE_URL, DECISION_PROXY_SCHEMA, 1);
  try {
    return await new PurgeExpiredDecisionCallsUseCase(new SqlDecisionCalls(db), { days: settings.CALL_RETENTION_DAYS }, clock).execute();
  } finally {
    await db.close();
  }
}
