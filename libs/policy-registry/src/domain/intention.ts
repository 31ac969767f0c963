import { conflict, INTENT_CLASSES, INTENTION_STATUSES, invalidRequest, type ErrorDetail, type IntentClass, type IntentionStatus } from '@igw/kernel';

/** Intentions (= purposes, DESIGN 6.3): what agents may do, with which data, for how long. */
export { INTENT_CLASSES, INTENTION_STATUSES, type IntentClass, type IntentionStatus };

export const LABEL = /^[a-z0-9][a-z0-9_.-]{0,62}$/;
export const TTL_MINUTES = { min: 1, max: 1440, default: 15 } as const;

export interface DataElement {
  dataSourceId: string;
  path: string;
}

export interface Intention {
  id: string;
  orgId: string;
  label: string;
  displayName: string;
  description: string;
  intentClass: IntentClass;
  status: IntentionStatus;
  approvalRequired: boolean;
  ttlMinutes: number;
  dataElements: DataElement[];
  /** Starts at 1, +1 on every change; `policy_id` is `<id>@<version>`. */
  version: number;
  createdAt: Date;
  updatedAt: Date;
}

export interface NewIntention {
  label: string;
  intentClass: IntentClass;
  displayName?: string;
  description?: string;
  approvalRequired?: boolean;
  ttlMinutes?: number;
  dataElements?: DataElement[];
}

/** A new intention is a draft at version 1; absent fields take their defaults. */
export function createIntention(id: string, orgId: string, input: NewIntention, now: Date): Intention {
  const details: ErrorDetail[] = [];
  if (!LABEL.test(input.label)) details.push({ path: 'label', message: `label must match ${LABEL.source}` });
  if (!(INTENT_CLASSES as readonly string[]).includes(input.intentClass)) {
    details.push({ path: 'intent_class', message: `intent_class must be one of ${INTENT_CLASSES.join(', ')}` });
  }
  const ttl = input.ttlMinutes ?? TTL_MINUTES.default;
  if (!Number.isInteger(ttl) || ttl < TTL_MINUTES.min || ttl > TTL_MINUTES.max) {
    details.push({ path: 'ttl_minutes', message: `ttl_minutes must be an integer from ${TTL_MINUTES.min} to ${TTL_MINUTES.max}` });
  }
  const [first] = details;
  if (first) throw invalidRequest(first.message, details);
  return {
    id,
    orgId,
    label: input.label,
    displayName: input.displayName ?? input.label,
    description: input.description ?? '',
    intentClass: input.intentClass,
    status: 'draft',
    approvalRequired: input.approvalRequired ?? false,
    ttlMinutes: ttl,
    dataElements: (input.dataElements ?? []).map((d) => ({ dataSourceId: d.dataSourceId, path: d.path })),
    version: 1,
    createdAt: now,
    updatedAt: now,
  };
}

/**
 * draft → active. Publishing an active intention changes nothing (null: idempotent, no event);
 * an archived one cannot come back (409 invalid_transition).
 */
export function publishIntention(current: Intention, now: Date): Intention | null {
  if (current.status === 'active') return null;
  if (current.status === 'archived') throw conflict('invalid_transition', 'an archived intention cannot be published');
  return { ...current, status: 'active', version: current.version + 1, updatedAt: now };
}

/** draft | active → archived; archiving an archived intention changes nothing (null). */
export function archiveIntention(current: Intention, now: Date): Intention | null {
  if (current.status === 'archived') return null;
  return { ...current, status: 'archived', version: current.version + 1, updatedAt: now };
}

export const labelConflict = (label: string) => conflict('label_conflict', `an intention with label "${label}" already exists`);
