import 'reflect-metadata';
import { loadConfigOrExit } from '@igw/config';
import { purgeDecisionCalls } from '@igw/decision-proxy';
import { createLogger } from '@igw/http';
import { PurgeCallsSettings, purgeEvaluatorCalls } from '@igw/intent-evaluator';
import { runTask } from '@igw/runtime';

/**
 * Deletes kept calls past CALL_RETENTION_DAYS and exits (DESIGN 6.16): the chart's CronJob. Both
 * paths: the evaluator's evaluated calls and the decision proxy's mandate-path calls. The
 * evaluations and decisions stay; only the kept calls go. Idempotent, safe beside running replicas.
 */
runTask('purge-calls', async () => {
  const settings = loadConfigOrExit(PurgeCallsSettings);
  const logger = createLogger(settings.LOG_LEVEL, 'purge-calls', settings.LOG_FORMAT);
  const purged = await purgeEvaluatorCalls(settings);
  const purgedDecisionCalls = await purgeDecisionCalls(settings);
  logger.info({ purged, purged_decision_calls: purgedDecisionCalls, retention_days: settings.CALL_RETENTION_DAYS }, 'calls past the retention window purged');
});
