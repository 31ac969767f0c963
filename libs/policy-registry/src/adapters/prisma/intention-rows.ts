import type { IntentClass, Intention, IntentionStatus } from '../../domain/intention';
import type { ExampleMessage, ExampleSource, ExampleToolCall, IntentionExample } from '../../domain/intention-example';
import { Prisma, type Intention as IntentionRow, type IntentionExample as IntentionExampleRow } from './generated/client';

/** Rows of `intentions` and `intention_examples` ↔ the domain's records (JSON columns in wire form). */
type StoredDataElement = { data_source_id: string; path: string };

export const toIntention = (r: IntentionRow): Intention => ({
  id: r.id,
  orgId: r.orgId,
  label: r.label,
  displayName: r.displayName,
  description: r.description,
  intentClass: r.intentClass as IntentClass,
  status: r.status as IntentionStatus,
  approvalRequired: r.approvalRequired,
  ttlMinutes: r.ttlMinutes,
  dataElements: (r.dataElements as StoredDataElement[]).map((d) => ({ dataSourceId: d.data_source_id, path: d.path })),
  tools: r.tools as string[],
  version: r.version,
  createdAt: r.createdAt,
  updatedAt: r.updatedAt,
});

/** Everything but the identity: what an update writes. */
export const mutableFields = (i: Intention) => ({
  label: i.label,
  displayName: i.displayName,
  description: i.description,
  intentClass: i.intentClass,
  status: i.status,
  approvalRequired: i.approvalRequired,
  ttlMinutes: i.ttlMinutes,
  dataElements: i.dataElements.map((d): StoredDataElement => ({ data_source_id: d.dataSourceId, path: d.path })),
  tools: i.tools,
  version: i.version,
  updatedAt: i.updatedAt,
});

export const toIntentionExample = (r: IntentionExampleRow): IntentionExample => ({
  id: r.id,
  orgId: r.orgId,
  intentionId: r.intentionId,
  toolCall: r.toolCall as unknown as ExampleToolCall,
  conversationContext: (r.conversationContext as unknown as ExampleMessage[] | null) ?? null,
  covered: r.covered,
  source: r.source as ExampleSource,
  approvalId: r.approvalId,
  createdAt: r.createdAt,
});

export const exampleRow = (e: IntentionExample): Prisma.IntentionExampleCreateManyInput => ({
  id: e.id,
  orgId: e.orgId,
  intentionId: e.intentionId,
  toolCall: e.toolCall as unknown as Prisma.InputJsonValue,
  conversationContext: e.conversationContext === null ? Prisma.DbNull : (e.conversationContext as unknown as Prisma.InputJsonValue),
  covered: e.covered,
  source: e.source,
  approvalId: e.approvalId,
  createdAt: e.createdAt,
});
