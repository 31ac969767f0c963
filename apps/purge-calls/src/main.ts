import 'reflect-metadata';
import { loadConfigOrExit } from '@igw/config';
import { createLogger } from '@igw/http';
import { PurgeCallsSettings, purgeEvaluatorCalls } from '@igw/intent-evaluator';
import { runTask } from '@igw/runtime';

/**
 * Deletes evaluated calls past CALL_RETENTION_DAYS and exits (DESIGN 6.16): the chart's CronJob.
 * The evaluations stay in history; only the kept calls go. Idempotent, safe beside running replicas.
 */
runTask('purge-calls', async () => {
  const settings = loadConfigOrExit(PurgeCallsSettings);
  const logger = createLogger(settings.LOG_LEVEL, 'purge-calls', settings.LOG_FORMAT);
  const purged = await purgeEvaluatorCalls(settings);
  logger.info({ purged, retention_days: settings.CALL_RETENTION_DAYS }, 'calls past the retention window purged');
});
