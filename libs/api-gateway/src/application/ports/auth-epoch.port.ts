export const AUTH_EPOCH = Symbol('AUTH_EPOCH');

/**
 * A counter every gateway replica reads before trusting its key cache; revoking a key or
 * changing an org's limits bumps it, so the very next request on any replica sees the change.
 */
export interface AuthEpoch {
  current(): Promise<number>;
  bump(): Promise<void>;
}
