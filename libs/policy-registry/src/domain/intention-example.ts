import { AppError, canonicalJson, conflict, invalidRequest } from '@igw/kernel';
import type { Intention } from './intention';

/**
 * Examples of an intention (DESIGN 6.15): a tool call the operator says this intention covers
 * (`covered: true`, calls like it are certain for it) or does not (`false`, calls like it are
 * never matched to it). Taught from the approval queue (`source: approval`) or added by hand.
 */
export type ExampleSource = 'manual' | 'approval';

export interface ExampleToolCall {
  name: string;
  arguments?: Record<string, unknown>;
}

export interface ExampleMessage {
  role: string;
  content: string;
}

export interface IntentionExample {
  id: string;
  orgId: string;
  intentionId: string;
  toolCall: ExampleToolCall;
  conversationContext: ExampleMessage[] | null;
  covered: boolean;
  source: ExampleSource;
  /** The approval it was taught from (`source: approval`), else null. */
  approvalId: string | null;
  createdAt: Date;
}

/** How many examples one intention may hold and how large one may be (canonical JSON, bytes). */
export interface ExampleLimits {
  perIntention: number;
  bytes: number;
}

export interface NewExample {
  toolCall: ExampleToolCall;
  conversationContext?: ExampleMessage[] | null;
  covered: boolean;
  source: ExampleSource;
  approvalId?: string | null;
}

/**
 * A new example of `intention`, which holds `count` examples already. The call is checked like an
 * evaluated one (arguments nested at most as deep as the kernel's canonical JSON allows, 400
 * naming `tool_call.arguments`) and `{tool_call, conversation_context}` in canonical JSON must fit
 * `limits.bytes` (400 naming `tool_call`). Archived intentions take none (409 invalid_transition);
 * a full one is 409 `example_limit`.
 */
export function createExample(id: string, intention: Intention, count: number, input: NewExample, limits: ExampleLimits, now: Date): IntentionExample {
  if (intention.status === 'archived') throw conflict('invalid_transition', 'an archived intention takes no examples');
  if (count >= limits.perIntention) throw exampleLimit(intention.label, limits.perIntention);
  checkCall(input, limits.bytes);
  return {
    id,
    orgId: intention.orgId,
    intentionId: intention.id,
    toolCall: input.toolCall.arguments === undefined ? { name: input.toolCall.name } : { name: input.toolCall.name, arguments: input.toolCall.arguments },
    conversationContext: input.conversationContext?.map((m) => ({ role: m.role, content: m.content })) ?? null,
    covered: input.covered,
    source: input.source,
    approvalId: input.approvalId ?? null,
    createdAt: now,
  };
}

export const exampleLimit = (label: string, max: number): AppError =>
  conflict('example_limit', `intention "${label}" already holds ${max} examples, the most one may hold; remove some first`);

function checkCall(input: NewExample, maxBytes: number): void {
  const call = input.toolCall;
  if (typeof call?.name !== 'string' || call.name === '')
    throw invalidRequest('tool_call.name is required', [{ path: 'tool_call.name', message: 'tool_call.name is required' }]);
  if (call.arguments !== undefined && (typeof call.arguments !== 'object' || call.arguments === null || Array.isArray(call.arguments))) {
    throw invalidRequest('tool_call.arguments must be an object', [{ path: 'tool_call.arguments', message: 'tool_call.arguments must be an object' }]);
  }
  // The evaluator's rule for arguments (the kernel's canonical JSON refuses deeper nesting).
  canonicalJson(call.arguments ?? {}, 'tool_call.arguments');
  const size = new TextEncoder().encode(canonicalJson({ tool_call: call, conversation_context: input.conversationContext ?? null })).length;
  if (size > maxBytes) {
    const message = `tool_call with its conversation_context must be at most ${maxBytes} bytes of JSON (it is ${size})`;
    throw invalidRequest(message, [{ path: 'tool_call', message }]);
  }
}

/** One example `teach` stores: the taught call is (`covered`) or is not this labelled intention. */
export interface TaughtExample {
  intentionLabel: string;
  covered: boolean;
}

/** An intention `teach` writes to, locked, with how many examples it holds. */
export interface TeachTarget {
  intention: Intention;
  count: number;
}

/**
 * What an operator taught from an approval: every example or none. Each label must name an
 * active intention of the org (404 `intent_not_found` naming it), once; every limit holds.
 */
export function teachExamples(
  ids: () => string,
  approvalId: string,
  call: Pick<NewExample, 'toolCall' | 'conversationContext'>,
  taught: readonly TaughtExample[],
  targets: ReadonlyMap<string, TeachTarget>,
  limits: ExampleLimits,
  now: Date,
): IntentionExample[] {
  if (taught.length === 0)
    throw invalidRequest('examples must hold at least one example', [{ path: 'examples', message: 'examples must hold at least one example' }]);
  const seen = new Set<string>();
  return taught.map((t, i) => {
    const path = `examples[${i}].intention_label`;
    if (seen.has(t.intentionLabel))
      throw invalidRequest(`${path} names "${t.intentionLabel}" twice`, [{ path, message: `${path} names "${t.intentionLabel}" twice` }]);
    seen.add(t.intentionLabel);
    const target = targets.get(t.intentionLabel);
    if (!target || target.intention.status !== 'active') {
      const message = `no active intention "${t.intentionLabel}" in this org`;
      throw new AppError('not_found', 'intent_not_found', message, { details: [{ path, message }] });
    }
    return createExample(ids(), target.intention, target.count, { ...call, covered: t.covered, source: 'approval', approvalId }, limits, now);
  });
}
