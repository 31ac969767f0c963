import type { ClassificationInput, IntentionDocument } from '../../domain/classification';

/**
 * Plain-text views of a tool call and of an intention for the embedding model. Embedding models
 * read natural words, so these keep words as written (no stemming, no stop-word removal);
 * identifiers are split on `_ . - /` and camelCase. Bounded so a huge call cannot make the
 * request large.
 */

const MAX_KEYS = 30;
const MAX_KEY_DEPTH = 2;
const MAX_MESSAGE_CHARS = 300;
const MAX_QUERY_CHARS = 2000;
const MAX_DESCRIPTION_CHARS = 1000;
const MAX_INTENTION_CHARS = 2000;

/** `hubspot.getContactByID` → `hubspot get contact by id`. */
export function identifierWords(text: string): string {
  return (
    text
      .replace(/([a-z])([A-Z])/g, '$1 $2')
      // HTTPResponse → HTTP Response, but a plural acronym stays whole (PRs, IDs).
      .replace(/([A-Z]+)([A-Z](?!s(?![a-z]))[a-z])/g, '$1 $2')
      .split(/[^A-Za-z0-9]+/)
      .filter(Boolean)
      .join(' ')
      .toLowerCase()
  );
}

const squash = (text: string, max: number) => {
  const t = text.replace(/\s+/g, ' ').trim();
  return t.length > max ? `${t.slice(0, max)}…` : t;
};

/** Argument keys at nesting depth ≤ 2, as words, first seen first, at most 30. */
function argumentKeys(args: Readonly<Record<string, unknown>> | undefined): string[] {
  const keys = new Set<string>();
  const walk = (value: unknown, depth: number) => {
    if (depth > MAX_KEY_DEPTH || keys.size >= MAX_KEYS || value === null || typeof value !== 'object') return;
    if (Array.isArray(value)) {
      for (const v of value.slice(0, 5)) walk(v, depth + 1);
      return;
    }
    for (const [k, v] of Object.entries(value as Record<string, unknown>).slice(0, 50)) {
      const words = identifierWords(k);
      if (words && keys.size < MAX_KEYS) keys.add(words);
      walk(v, depth + 1);
    }
  };
  walk(args, 1);
  return [...keys];
}

/** The last `messages` chat messages of the user and the assistant (system and tool output are left out). */
export function recentMessages(input: ClassificationInput, messages: number): { role: string; content: string }[] {
  if (messages <= 0) return [];
  return (input.conversationContext ?? []).filter((m) => m.role === 'user' || m.role === 'assistant').slice(-messages);
}

/** The call as the embedding layer sees it: tool-name words, argument keys, recent conversation. */
export function callText(input: ClassificationInput, contextMessages: number): string {
  const lines = [`tool: ${identifierWords(input.toolName)}`];
  const keys = argumentKeys(input.arguments);
  if (keys.length > 0) lines.push(`arguments: ${keys.join(', ')}`);
  const recent = recentMessages(input, contextMessages).map((m) => `${m.role}: ${squash(m.content, MAX_MESSAGE_CHARS)}`);
  if (recent.length > 0) lines.push(...recent);
  return squash(lines.join('. '), MAX_QUERY_CHARS);
}

/** The intention as the embedding layer sees it: names, description, data elements, class. */
export function intentionText(doc: IntentionDocument): string {
  const parts = [`${doc.displayName} (${identifierWords(doc.label)}).`];
  if (doc.description.trim()) parts.push(squash(doc.description, MAX_DESCRIPTION_CHARS));
  if (doc.dataElements.length > 0)
    parts.push(
      `Data: ${doc.dataElements
        .slice(0, 30)
        .map((d) => `${d.dataSourceId} ${identifierWords(d.path)}`)
        .join(', ')}.`,
    );
  parts.push(`Kind: ${doc.intentClass}.`);
  return squash(parts.join(' '), MAX_INTENTION_CHARS);
}
