import type { DecisionKind } from './decision-kinds';

/**
 * What services count, without knowing how it is exposed (the Prometheus registry lives in
 * `@igw/http`; nothing here loads it). Every method is cheap and never throws.
 */
export interface Metrics {
  /** A mandate-path decision was committed (decision proxy). */
  decisionMade(kind: DecisionKind): void;
  /** An evaluation was committed: its outcome and the classifier layer whose decision stands. */
  intentEvaluated(outcome: string, layer: string): void;
  /** A request was refused by its key's rate limit (429). */
  rateLimited(): void;
  /** A read model took another service's state: a full load from the owner, or one event applied. */
  readModelRefreshed(readModel: string, via: 'load' | 'event'): void;
}

export const METRICS = Symbol('METRICS');

/** Counts nothing: the default where no registry is wired (unit tests). */
export const NO_METRICS: Metrics = {
  decisionMade: () => undefined,
  intentEvaluated: () => undefined,
  rateLimited: () => undefined,
  readModelRefreshed: () => undefined,
};
