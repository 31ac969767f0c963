import type { IntentClass } from '@igw/contracts';
import { resolveDataElements, type DataElementResult } from '../../domain/evaluation/data-elements';
import type { RetainedMessage } from '../../domain/evaluation/retained-call';
import type { CascadeResult } from '../classification/cascade-evidence';
import type { ClassificationCascade } from '../classification/classification-cascade';
import type { ActiveIntention, OrgIntentions } from '../read-model/active-intentions.read-model';

/** A call as the cascade and the outcome rules see it: live (`POST /v1/intent/evaluate`) or kept (what-if replay). */
export interface CallToClassify {
  toolName: string;
  arguments?: Record<string, unknown>;
  conversationContext?: RetainedMessage[];
  dataSourceId?: string | null;
}

/** The cascade's answer and what the outcome rules need of it. */
export interface ClassifiedCall {
  classified: CascadeResult;
  match: 'certain' | 'uncertain';
  /** The matched active intention; null for the ambient cluster. */
  intention: ActiveIntention | null;
  dataElements: DataElementResult;
}

const NO_DATA: DataElementResult = { ok: true, approved: [] };

/** The data elements of a call under an intention (none without one). */
export function dataElementsFor(intention: ActiveIntention | null, call: CallToClassify): DataElementResult {
  return intention ? resolveDataElements({ allowed: intention.dataElements, arguments: call.arguments, dataSourceId: call.dataSourceId }) : NO_DATA;
}

/**
 * Classifies a call against one org's intentions (the real cascade) and resolves its data
 * elements: the part of a decision that both evaluation and replay make, before evaluation's
 * side effects (approvals, grants, the record).
 */
export async function classifyCall(cascade: ClassificationCascade, org: OrgIntentions, call: CallToClassify): Promise<ClassifiedCall> {
  const classified = await cascade.classify(org, { toolName: call.toolName, arguments: call.arguments, conversationContext: call.conversationContext });
  const { verdict } = classified;
  const intention = verdict.kind === 'ambient' ? null : (org.intention(verdict.intentionId) ?? null);
  return { classified, match: verdict.kind === 'uncertain' ? 'uncertain' : 'certain', intention, dataElements: dataElementsFor(intention, call) };
}

/** The label and class an evaluation reports: the intention's, or the cascade's decision (ambient). */
export function decidedIntent(intention: ActiveIntention | null, classified: CascadeResult): { label: string; intentClass: IntentClass } {
  return intention
    ? { label: intention.label, intentClass: intention.intentClass }
    : { label: classified.decision.label, intentClass: classified.decision.intentClass };
}
