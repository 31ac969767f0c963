import {
  conflict,
  INTENT_CLASSES,
  INTENTION_STATUSES,
  invalidRequest,
  throwIfInvalid,
  type ErrorDetail,
  type IntentClass,
  type IntentionStatus,
} from '@igw/kernel';
import { checkToolBindings } from './tool-bindings';

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
  /** Tool-name patterns it covers exactly (DESIGN 6.15), each once, in the order given; [] = the classifier decides. */
  tools: string[];
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
  tools?: string[];
}

/** A new intention is a draft at version 1; absent fields take their defaults. */
export function createIntention(id: string, orgId: string, input: NewIntention, now: Date): Intention {
  const details: ErrorDetail[] = [];
  if (!LABEL.test(input.label)) details.push({ path: 'label', message: `label must match ${LABEL.source}` });
  if (!(INTENT_CLASSES as readonly string[]).includes(input.intentClass)) {
    details.push({ path: 'intent_class', message: `intent_class must be one of ${INTENT_CLASSES.join(', ')}` });
  }
  const ttl = input.ttlMinutes ?? TTL_MINUTES.default;
  details.push(...checkTtl(ttl));
  const tools = checkToolBindings(input.tools ?? [], details);
  throwIfInvalid(details);
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
    tools,
    version: 1,
    createdAt: now,
    updatedAt: now,
  };
}

function checkTtl(ttl: number): ErrorDetail[] {
  if (Number.isInteger(ttl) && ttl >= TTL_MINUTES.min && ttl <= TTL_MINUTES.max) return [];
  return [{ path: 'ttl_minutes', message: `ttl_minutes must be an integer from ${TTL_MINUTES.min} to ${TTL_MINUTES.max}` }];
}

/** What PATCH may change: every field but the identity, the label and the status. Absent = unchanged. */
export type IntentionChanges = Partial<
  Pick<NewIntention, 'displayName' | 'description' | 'intentClass' | 'approvalRequired' | 'ttlMinutes' | 'dataElements' | 'tools'>
>;

/** The fields PATCH may change, with their names on the wire. */
const CHANGEABLE = {
  displayName: 'display_name',
  description: 'description',
  intentClass: 'intent_class',
  approvalRequired: 'approval_required',
  ttlMinutes: 'ttl_minutes',
  dataElements: 'data_elements',
  tools: 'tools',
} as const;
const CHANGEABLE_FIELDS = Object.keys(CHANGEABLE) as (keyof typeof CHANGEABLE)[];

/**
 * Changes the given fields of a draft or active intention (version + 1). Nothing given is a 400
 * naming the body; values equal to the current ones change nothing (null: no new version, no
 * event); an archived intention is frozen (409 invalid_transition).
 */
export function updateIntention(current: Intention, changes: IntentionChanges, now: Date): Intention | null {
  assertSomeChange(changes);
  if (current.status === 'archived') throw conflict('invalid_transition', 'an archived intention cannot be changed');
  const details: ErrorDetail[] = [];
  for (const field of CHANGEABLE_FIELDS) {
    const wire = CHANGEABLE[field];
    if (changes[field] === null) details.push({ path: wire, message: `${wire} must not be null (leave it out to keep it)` });
  }
  throwIfInvalid(details);
  if (changes.intentClass !== undefined && !(INTENT_CLASSES as readonly string[]).includes(changes.intentClass)) {
    details.push({ path: 'intent_class', message: `intent_class must be one of ${INTENT_CLASSES.join(', ')}` });
  }
  if (changes.ttlMinutes !== undefined) details.push(...checkTtl(changes.ttlMinutes));
  const tools = changes.tools === undefined ? current.tools : checkToolBindings(changes.tools, details);
  throwIfInvalid(details);
  const next: Intention = {
    ...current,
    displayName: changes.displayName ?? current.displayName,
    description: changes.description ?? current.description,
    intentClass: changes.intentClass ?? current.intentClass,
    approvalRequired: changes.approvalRequired ?? current.approvalRequired,
    ttlMinutes: changes.ttlMinutes ?? current.ttlMinutes,
    dataElements: changes.dataElements?.map((d) => ({ dataSourceId: d.dataSourceId, path: d.path })) ?? current.dataElements,
    tools,
  };
  if (sameContent(current, next)) return null;
  return { ...next, version: current.version + 1, updatedAt: now };
}

/** 400 naming the body when `changes` names no field (so it is refused before any lookup). */
export function assertSomeChange(changes: IntentionChanges): void {
  if (CHANGEABLE_FIELDS.some((field) => changes[field] !== undefined)) return;
  const message = `body must change at least one of ${Object.values(CHANGEABLE).join(', ')}`;
  throw invalidRequest(message, [{ path: 'body', message }]);
}

function sameContent(a: Intention, b: Intention): boolean {
  return CHANGEABLE_FIELDS.every((field) => JSON.stringify(a[field]) === JSON.stringify(b[field]));
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
