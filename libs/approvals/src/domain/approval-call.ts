import { APPROVAL_REASON_CODES, type ApprovalReasonCode, type ErrorDetail } from '@igw/kernel';

/** What a legacy-path (evaluate) request keeps about the call it holds (DESIGN 6.15). */

/** A candidate intention of an uncertain match. */
export interface ApprovalCandidate {
  intentLabel: string;
  intentionId: string;
  /** 0..1 */
  confidence: number;
}

export interface ApprovalToolCall {
  name: string;
  arguments?: Record<string, unknown>;
}

export interface ConversationMessage {
  role: string;
  content: string;
}

/** Bounds of the wire contract (CreateApprovalRequestDto, EVALUATE_LIMITS), repeated for in-process callers. */
const CALL_LIMITS = { candidates: 10, label: 200, intentionId: 128, toolName: 256, messages: 50, role: 32, content: 16_000 } as const;

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isText = (v: unknown, max: number): v is string => typeof v === 'string' && v.length <= max;

function checkedCandidates(details: ErrorDetail[], value: unknown): ApprovalCandidate[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value) || value.length > CALL_LIMITS.candidates) {
    details.push({ path: 'candidates', message: `candidates must be an array of at most ${CALL_LIMITS.candidates} candidates` });
    return [];
  }
  return value.flatMap((c: unknown, i): ApprovalCandidate[] => {
    const ok =
      isRecord(c) &&
      typeof c.intentLabel === 'string' &&
      c.intentLabel !== '' &&
      c.intentLabel.length <= CALL_LIMITS.label &&
      isText(c.intentionId, CALL_LIMITS.intentionId) &&
      typeof c.confidence === 'number' &&
      c.confidence >= 0 &&
      c.confidence <= 1;
    if (!ok) {
      details.push({ path: `candidates[${i}]`, message: `candidates[${i}] must have an intent_label, an intention_id and a confidence from 0 to 1` });
      return [];
    }
    return [{ intentLabel: c.intentLabel as string, intentionId: c.intentionId as string, confidence: c.confidence as number }];
  });
}

function checkedToolCall(details: ErrorDetail[], value: unknown): ApprovalToolCall | null {
  if (value === undefined || value === null) return null;
  if (!isRecord(value) || typeof value.name !== 'string' || value.name === '' || value.name.length > CALL_LIMITS.toolName) {
    details.push({ path: 'tool_call', message: `tool_call must be an object with a name of 1 to ${CALL_LIMITS.toolName} characters` });
    return null;
  }
  if (value.arguments === undefined) return { name: value.name };
  if (!isRecord(value.arguments)) {
    details.push({ path: 'tool_call.arguments', message: 'arguments must be an object' });
    return null;
  }
  return { name: value.name, arguments: value.arguments };
}

function checkedContext(details: ErrorDetail[], value: unknown): ConversationMessage[] | null {
  if (value === undefined || value === null) return null;
  const ok =
    Array.isArray(value) &&
    value.length <= CALL_LIMITS.messages &&
    value.every((m: unknown) => isRecord(m) && isText(m.role, CALL_LIMITS.role) && isText(m.content, CALL_LIMITS.content));
  if (!ok) {
    details.push({ path: 'conversation_context', message: `conversation_context must be at most ${CALL_LIMITS.messages} messages with a role and a content` });
    return null;
  }
  return (value as ConversationMessage[]).map((m) => ({ role: m.role, content: m.content }));
}

/** The legacy-path fields of a new request, checked (problems go to `details`); no reason = approval_required. */
export function checkedCall(
  details: ErrorDetail[],
  input: { reasonCode?: unknown; candidates?: unknown; toolCall?: unknown; conversationContext?: unknown },
): { reasonCode: ApprovalReasonCode; candidates: ApprovalCandidate[]; toolCall: ApprovalToolCall | null; conversationContext: ConversationMessage[] | null } {
  let reasonCode: ApprovalReasonCode = 'approval_required';
  if (input.reasonCode !== undefined && input.reasonCode !== null) {
    if ((APPROVAL_REASON_CODES as readonly unknown[]).includes(input.reasonCode)) reasonCode = input.reasonCode as ApprovalReasonCode;
    else details.push({ path: 'reason_code', message: `reason_code must be one of ${APPROVAL_REASON_CODES.join(', ')}` });
  }
  return {
    reasonCode,
    candidates: checkedCandidates(details, input.candidates),
    toolCall: checkedToolCall(details, input.toolCall),
    conversationContext: checkedContext(details, input.conversationContext),
  };
}
