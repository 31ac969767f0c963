import type { MandateEventV1, MandateViewDto } from '@igw/contracts';
import { mandateStatus, type Mandate } from '../../domain/mandate';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** `GET /v1/mandate/{cred_id}`: everything but the credential. */
export function toMandateView(m: Mandate, now: Date): MandateViewDto {
  return {
    cred_id: m.credId,
    actor: m.actor,
    intent_id: m.intentId,
    prompt_id: m.promptId,
    audience: m.audience,
    scope: { operations: [...m.scope.operations], resources: [...m.scope.resources], forbidden_operations: [...m.scope.forbidden_operations] },
    status: mandateStatus(m, now),
    issued_at: m.issuedAt.toISOString(),
    expires_at: m.expiresAt.toISOString(),
    revoked_at: iso(m.revokedAt),
    refresh_count: m.refreshCount,
    broker: m.broker ? { ...m.broker } : null,
    classification_evidence: m.classificationEvidence,
  };
}

/**
 * The `mandate.*` v1 payload: the view without the evidence, plus what the decision proxy needs;
 * `revocationVersion` (the org's revocation counter after this revocation) on mandate.revoked.
 */
export function toMandateEvent(m: Mandate, now: Date, revocationVersion: number | null = null): MandateEventV1 {
  const { classification_evidence: _evidence, broker, ...view } = toMandateView(m, now);
  return {
    ...view,
    kid: m.kid,
    revoke_reason: m.revokeReason,
    broker_kind: (broker?.['kind'] as MandateEventV1['broker_kind']) ?? null,
    ...(revocationVersion !== null ? { revocation_version: revocationVersion } : {}),
  };
}
