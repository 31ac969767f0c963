import type { DecisionRecord } from '../domain';

/** The call a record is about, as every outward form of it names the fields (store, API, event). */
export const decisionCallFields = (r: DecisionRecord) => ({
  cred_id: r.credId,
  intent_id: r.intentId,
  prompt_id: r.promptId,
  actor: r.actor,
  surface: r.surface,
  operation: r.operation,
  target_resource: r.targetResource,
});
