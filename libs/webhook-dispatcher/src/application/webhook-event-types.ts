import { Topics } from '@igw/contracts';

type TopicEntry = (typeof Topics)[keyof typeof Topics];

/** Topics delivered to webhooks, with their public type (DESIGN 6.11). */
export const PUBLIC_TOPICS = Object.values(Topics).filter((t): t is TopicEntry & { webhookType: string } => typeof t.webhookType === 'string');

/** The public event types a webhook can subscribe to. */
export const WEBHOOK_EVENT_TYPES: readonly string[] = PUBLIC_TOPICS.map((t) => t.webhookType);

const typeByTopic = new Map<string, string>(PUBLIC_TOPICS.map((t) => [t.name, t.webhookType]));

/** The public type of an internal topic; undefined for topics that are not public. */
export const webhookTypeOf = (topic: string): string | undefined => typeByTopic.get(topic);

/**
 * The delivered body (Standard Webhooks): `{type, timestamp, data}`, serialized once when the
 * event is fanned out so every attempt sends the same bytes.
 */
export function webhookBody(type: string, occurredAt: string, data: unknown): string {
  return JSON.stringify({ type, timestamp: occurredAt, data });
}
