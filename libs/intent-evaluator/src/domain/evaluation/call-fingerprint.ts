import { canonicalJson as kernelCanonicalJson, MAX_CANONICAL_DEPTH } from '@igw/kernel';

/** Deeper arguments are refused with 400 (see the kernel's canonicalJson). */
export const MAX_ARGUMENT_DEPTH = MAX_CANONICAL_DEPTH;

/**
 * The identity of "the same call" for approvals (DESIGN 6.4): same org, user, session, tool name
 * and canonical arguments. The domain renders it as canonical JSON; the application hashes that
 * string (sha256) to key approvals, so the hash is stable across processes and versions.
 */
export interface CallIdentity {
  orgId: string;
  userId?: string | null;
  sessionId?: string | null;
  toolName: string;
  /** Absent arguments and `{}` are the same call. */
  arguments?: unknown;
}

/** Bumped if the rendering below ever changes, so old and new fingerprints never collide. */
const FINGERPRINT_VERSION = 1;

/** Canonical JSON of the arguments (the kernel's rendering; 400 naming `tool_call.arguments` when too deep). */
export const canonicalJson = (value: unknown): string => kernelCanonicalJson(value, 'tool_call.arguments');

/** A tool call by itself: what a grant is bound to (DESIGN 6.5). */
export type ToolCall = Pick<CallIdentity, 'toolName' | 'arguments'>;

/**
 * The canonical string of a tool call alone, without org, user or session (a grant carries those
 * in claims of its own): `{"args":<canonical arguments>,"tool":<name>,"v":1}`, itself canonical
 * JSON. A grant's `call` claim is its SHA-256; absent arguments and `{}` are the same call.
 */
export function canonicalToolCall(call: ToolCall): string {
  return `{"args":${canonicalJson(call.arguments ?? {})},"tool":${JSON.stringify(call.toolName)},"v":${FINGERPRINT_VERSION}}`;
}

/** The canonical string of a call; equal strings ⇔ the same call. */
export function canonicalCall(call: CallIdentity): string {
  // Members in sorted key order, so the whole string is canonical JSON too.
  const text = (v: string | null | undefined) => (v === undefined || v === null ? 'null' : JSON.stringify(v));
  return `{"args":${canonicalJson(call.arguments ?? {})},"org":${text(call.orgId)},"session":${text(call.sessionId)},"tool":${text(call.toolName)},"user":${text(call.userId)},"v":${FINGERPRINT_VERSION}}`;
}
