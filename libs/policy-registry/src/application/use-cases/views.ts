import type {
  CardRule as CardRuleContract,
  IntentCardDto,
  IntentCardEventV1,
  IntentionDto,
  IntentionEventV1,
  IntentionExampleDto,
  IntentionExampleEventV1,
} from '@igw/contracts';
import type { IntentCard } from '../../domain/intent-card';
import type { Intention } from '../../domain/intention';
import type { IntentionExample } from '../../domain/intention-example';

export function toIntentionDto(i: Intention): IntentionDto {
  return {
    id: i.id,
    label: i.label,
    display_name: i.displayName,
    description: i.description,
    intent_class: i.intentClass,
    status: i.status,
    approval_required: i.approvalRequired,
    ttl_minutes: i.ttlMinutes,
    data_elements: i.dataElements.map((d) => ({ data_source_id: d.dataSourceId, path: d.path })),
    tools: [...i.tools],
    version: i.version,
    created_at: i.createdAt.toISOString(),
    updated_at: i.updatedAt.toISOString(),
  };
}

export function toIntentionEvent(i: Intention, orgVersion: number): IntentionEventV1 {
  return { ...toIntentionDto(i), org_version: orgVersion };
}

export function toIntentionExampleDto(e: IntentionExample): IntentionExampleDto {
  return {
    id: e.id,
    intention_id: e.intentionId,
    tool_call: structuredClone(e.toolCall),
    ...(e.conversationContext ? { conversation_context: e.conversationContext.map((m) => ({ role: m.role, content: m.content })) } : {}),
    covered: e.covered,
    source: e.source,
    approval_id: e.approvalId,
    created_at: e.createdAt.toISOString(),
  };
}

/** An example in the form of its events and of the active snapshot; `removed: true` on removal. */
export function toIntentionExampleEvent(e: IntentionExample, orgVersion: number, removed = false): IntentionExampleEventV1 {
  return { ...toIntentionExampleDto(e), org_version: orgVersion, ...(removed ? { removed: true } : {}) };
}

export function toIntentCardDto(c: IntentCard): IntentCardDto {
  return {
    id: c.id,
    name: c.name,
    description: c.description,
    allowed_scope: {
      operations: [...c.allowedScope.operations],
      resources: [...c.allowedScope.resources],
      forbidden_operations: [...c.allowedScope.forbidden_operations],
    },
    audiences: [...c.audiences],
    max_ttl_seconds: c.maxTtlSeconds,
    shadow: c.shadow,
    rules: c.rules as CardRuleContract[],
    version: c.version,
    created_at: c.createdAt.toISOString(),
    updated_at: c.updatedAt.toISOString(),
  };
}

export function toIntentCardEvent(c: IntentCard, orgVersion: number, deleted = false): IntentCardEventV1 {
  return { ...toIntentCardDto(c), org_version: orgVersion, ...(deleted ? { deleted: true } : {}) };
}
