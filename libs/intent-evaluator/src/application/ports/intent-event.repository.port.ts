import type { IntentClass, IntentEvaluatedV1 } from '@igw/contracts';
import type { PageKey } from '@igw/kernel';
import type { CascadeEvidence } from '../classification/cascade-evidence';
import type { EvaluationOutcome } from '../../domain/evaluation/outcome';
import type { RetainedCall } from '../../domain/evaluation/retained-call';

export const INTENT_EVENT_STORE = Symbol('INTENT_EVENT_STORE');

/**
 * One recorded evaluation (DESIGN 6.4): the history event of DESIGN 6.6 plus the org, the
 * classification evidence and the grant's `jti`. Never changes once recorded.
 */
export interface IntentEventRecord {
  id: string;
  orgId: string;
  outcome: EvaluationOutcome;
  intentLabel: string;
  intentClass: IntentClass;
  /** 0..1 */
  confidence: number;
  toolName: string;
  userId: string | null;
  sessionId: string | null;
  conversationId: string | null;
  shadowMode: boolean;
  /** `<intention id>@<version>`, or `ambient`. */
  policyId: string;
  approvalRequestId: string | null;
  /** `<data_source_id>:<path>` strings. */
  dataElements: string[];
  processingTimeMs: number;
  /** From the evaluation's Clock; millisecond precision (the history cursor relies on it). */
  createdAt: Date;
  /** The evaluate response's `classification_evidence`. */
  evidence: CascadeEvidence;
  /** The `jti` of the grant issued with this evaluation; null when none was. */
  grantJti: string | null;
  /**
   * The call, kept for the retention window (DESIGN 6.16); null when retention is off, the call
   * was over the cap, it has been purged, or the page did not ask for it (`callsSince`).
   */
  call: RetainedCall | null;
}

/** One history page request; the domain's `HistoryQuery` (from `parseHistoryQuery`) is one. */
export interface IntentEventPageQuery {
  /** Page size: `page()` returns up to `limit + 1` rows (see the kernel's `toPage`). */
  limit: number;
  outcome?: EvaluationOutcome | null;
  /** Only events with `created_at >= since`. */
  since?: Date | null;
  /** Only events strictly after this position in newest-first order (the decoded cursor). */
  after?: PageKey | null;
  /** Attach each event's kept call when it was recorded at or after this instant (the window's start); unset: no calls. */
  callsSince?: Date | null;
}

export interface IntentEventStore {
  /**
   * Stores the event and its `intent.evaluated` outbox row. Resolves only once both are
   * committed (the answer may then be sent: DESIGN 6.4 "do not lose one"); rejects when they
   * were not, with DependencyUnavailableError (→ 503) when the database could not be reached.
   * Concurrent calls are committed together in one transaction (group commit).
   */
  record(event: IntentEventRecord): Promise<void>;
  /**
   * The org's events newest first (`created_at desc, id desc`), filtered by outcome and since,
   * strictly after `query.after`: up to `query.limit + 1` rows, so the caller learns whether a
   * next page exists (the kernel's `toPage(rows, query.limit)`).
   */
  page(orgId: string, query: IntentEventPageQuery): Promise<IntentEventRecord[]>;
}

export const KEPT_CALLS = Symbol('KEPT_CALLS');

/** The calls kept with evaluations, as the retention purge sees them. */
export interface KeptCalls {
  /** Deletes the kept calls of every org recorded before `cutoff` (the events stay); how many were. */
  purgeBefore(cutoff: Date): Promise<number>;
}

export const RECORDED_CALLS = Symbol('RECORDED_CALLS');

/** An evaluation whose call is still kept: what it decided, and the call (DESIGN 6.16, what-if replay). */
export interface RecordedCall {
  id: string;
  createdAt: Date;
  outcome: EvaluationOutcome;
  intentLabel: string;
  shadowMode: boolean;
  call: RetainedCall;
}

/** One keyset page of an org's kept calls, oldest first (`created_at asc, id asc`). */
export interface RecordedCallsQuery {
  /** `created_at >= since`. */
  since: Date;
  /** `created_at < until`. */
  until: Date;
  /** Strictly after this position (the last row of the previous page). */
  after: PageKey | null;
  limit: number;
}

export interface RecordedCalls {
  /** The org's evaluations with a kept call in the window, oldest first, at most `limit`; never another org's. */
  page(orgId: string, query: RecordedCallsQuery): Promise<RecordedCall[]>;
}

/** The history event of DESIGN 6.6, which is also the `intent.evaluated` v1 payload. */
export function toIntentEvaluatedV1(r: IntentEventRecord): IntentEvaluatedV1 {
  return {
    id: r.id,
    outcome: r.outcome,
    intent_label: r.intentLabel,
    intent_class: r.intentClass,
    confidence: r.confidence,
    tool_name: r.toolName,
    user_id: r.userId,
    session_id: r.sessionId,
    conversation_id: r.conversationId,
    shadow_mode: r.shadowMode,
    policy_id: r.policyId,
    approval_request_id: r.approvalRequestId,
    data_elements: [...r.dataElements],
    processing_time_ms: r.processingTimeMs,
    created_at: r.createdAt.toISOString(),
  };
}
