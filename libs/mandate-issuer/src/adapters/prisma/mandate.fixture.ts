import type { Mandate } from '../../domain/mandate';

/**
 * A stored mandate for the storage specs: active, never refreshed, no broker, no evidence, 60 s
 * long from `issuedAt`; a spec overrides what it tests.
 */
export function mandateFixture(over: Partial<Mandate> & Pick<Mandate, 'credId' | 'orgId'>): Mandate {
  const issuedAt = over.issuedAt ?? new Date('2026-03-01T10:00:00.000Z');
  return {
    actor: 'agent',
    intentId: 'card',
    promptId: 'p',
    audience: 'aud',
    scope: { operations: ['a'], resources: ['r'], forbidden_operations: [] },
    context: {},
    acr: null,
    issuedAt,
    expiresAt: new Date(issuedAt.getTime() + 60_000),
    revokedAt: null,
    revokeReason: null,
    refreshCount: 0,
    lastRefreshedAt: null,
    kid: 'kid_1',
    broker: null,
    classificationEvidence: null,
    ...over,
  };
}
