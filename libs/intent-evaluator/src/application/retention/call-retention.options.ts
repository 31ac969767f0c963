import type { CallRetention } from '../../domain/evaluation/retained-call';

/** The deployment's call retention (CALL_RETENTION_DAYS, CALL_RETENTION_MAX_BYTES). */
export const CALL_RETENTION = Symbol('CALL_RETENTION');

/** How often this process purges calls past the window; 0: never (a Kubernetes CronJob does it). */
export const CALL_PURGE_INTERVAL = Symbol('CALL_PURGE_INTERVAL');

export type { CallRetention };
