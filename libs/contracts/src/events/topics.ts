/**
 * The one registry of event topics (DESIGN 5): `<context>.<entity>.<event>.v<N>`.
 * `webhookType` is the public name used in webhook deliveries (DESIGN 6.11), when the event is public.
 */
export const Topics = {
  OrgCreated: { name: 'gateway.org.created.v1', version: 1, webhookType: undefined },
  ApiKeyCreated: { name: 'gateway.api_key.created.v1', version: 1, webhookType: undefined },
  ApiKeyRevoked: { name: 'gateway.api_key.revoked.v1', version: 1, webhookType: undefined },
  IntentionCreated: { name: 'policy.intention.created.v1', version: 1, webhookType: undefined },
  IntentionPublished: { name: 'policy.intention.published.v1', version: 1, webhookType: 'intention.published' },
  IntentionArchived: { name: 'policy.intention.archived.v1', version: 1, webhookType: undefined },
  IntentionUpdated: { name: 'policy.intention.updated.v1', version: 1, webhookType: undefined },
  IntentionExampleAdded: { name: 'policy.intention_example.added.v1', version: 1, webhookType: undefined },
  IntentionExampleRemoved: { name: 'policy.intention_example.removed.v1', version: 1, webhookType: undefined },
  IntentCardInstalled: { name: 'policy.intent_card.installed.v1', version: 1, webhookType: undefined },
  IntentCardDeleted: { name: 'policy.intent_card.deleted.v1', version: 1, webhookType: undefined },
  IntentEvaluated: { name: 'evaluator.intent.evaluated.v1', version: 1, webhookType: 'intent.evaluated' },
  ApprovalRequested: { name: 'approvals.approval.requested.v1', version: 1, webhookType: 'approval.requested' },
  ApprovalApproved: { name: 'approvals.approval.approved.v1', version: 1, webhookType: 'approval.approved' },
  ApprovalDenied: { name: 'approvals.approval.denied.v1', version: 1, webhookType: 'approval.denied' },
  ApprovalExpired: { name: 'approvals.approval.expired.v1', version: 1, webhookType: 'approval.expired' },
  MandateDispensed: { name: 'mandates.mandate.dispensed.v1', version: 1, webhookType: 'mandate.dispensed' },
  MandateRefreshed: { name: 'mandates.mandate.refreshed.v1', version: 1, webhookType: 'mandate.refreshed' },
  MandateRevoked: { name: 'mandates.mandate.revoked.v1', version: 1, webhookType: 'mandate.revoked' },
  DecisionMade: { name: 'proxy.decision.made.v1', version: 1, webhookType: 'decision.made' },
} as const satisfies Record<string, { name: string; version: number; webhookType: string | undefined }>;

export type TopicKey = keyof typeof Topics;
export type TopicName = (typeof Topics)[TopicKey]['name'];

export const ALL_TOPICS: TopicName[] = Object.values(Topics).map((t) => t.name);
