export const VERSION_BOARD = Symbol('VERSION_BOARD');

/**
 * The latest committed version of a named counter, readable cheaply on every call by every
 * process. The writer (the service that owns the counter) advances it right after its commit and
 * before it answers, so a reader that sees a version newer than the one its cache holds knows it
 * is stale and refreshes synchronously (DESIGN 4).
 *
 * The board only ever moves forward: concurrent or late advances never lower it. It is a hint, not
 * the source of truth — the owner's database is — so a lost value (an empty Redis) reads as 0 and a
 * reader whose cache holds a newer version keeps it.
 */
export interface VersionBoard {
  /** The highest version advanced so far for `key`; 0 when none. Rejects when the board is unreachable. */
  current(key: string): Promise<number>;
  /** Raises `key` to `version` unless it is already there or higher (monotonic: never lowers). */
  advance(key: string, version: number): Promise<void>;
}

/** Board key of an org's intentions counter (policy-registry `org_versions.intentions_version`). */
export const intentionsKey = (orgId: string): string => `intentions:${orgId}`;
/** Board key of an org's intent cards counter (policy-registry `org_versions.cards_version`). */
export const cardsKey = (orgId: string): string => `cards:${orgId}`;
/** Board key of an org's mandate revocation counter (mandate-issuer `org_revocation_versions.version`). */
export const revocationsKey = (orgId: string): string => `revocations:${orgId}`;
/** Board key of an org's webhook subscriptions counter (webhook-dispatcher `org_webhook_versions`). */
export const webhooksKey = (orgId: string): string => `webhooks:${orgId}`;
