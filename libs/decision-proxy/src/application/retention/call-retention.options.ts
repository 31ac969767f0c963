import type { CallRetention } from '@igw/kernel';

/** The deployment's call retention (CALL_RETENTION_DAYS, CALL_RETENTION_MAX_BYTES), as the evaluator's. */
export const DECISION_CALL_RETENTION = Symbol('DECISION_CALL_RETENTION');

/** How often this process purges kept calls past the window; 0: never (a Kubernetes CronJob does it). */
export const DECISION_CALL_PURGE_INTERVAL = Symbol('DECISION_CALL_PURGE_INTERVAL');

export type { CallRetention };
