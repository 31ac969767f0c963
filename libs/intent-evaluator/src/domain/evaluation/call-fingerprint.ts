import { invalidRequest } from '@igw/kernel';

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

/**
 * Deeper nesting is refused (400) rather than risk the stack: a 256 KiB body can nest far deeper
 * than any tool's arguments do, and fuzzed bodies must get 400, never 500.
 */
export const MAX_ARGUMENT_DEPTH = 64;

/** Bumped if the rendering below ever changes, so old and new fingerprints never collide. */
const FINGERPRINT_VERSION = 1;

/**
 * Canonical JSON of a JSON value: object keys sorted by UTF-16 code units at every level, no
 * whitespace, arrays in order, numbers and strings as `JSON.stringify` writes them (the same
 * rules as RFC 8785 for JSON input). Like `JSON.stringify`, `undefined`/functions are dropped
 * from objects and become `null` in arrays, and non-finite numbers become `null`.
 */
export function canonicalJson(value: unknown): string {
  return render(value, 0);
}

function render(value: unknown, depth: number): string {
  if (value === null || typeof value === 'boolean') return String(value);
  if (typeof value === 'number') return Number.isFinite(value) ? JSON.stringify(value) : 'null';
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value !== 'object') return 'null';
  if (depth >= MAX_ARGUMENT_DEPTH) {
    // Containers count from 0 (the arguments object itself).
    const message = `tool_call.arguments must not nest deeper than ${MAX_ARGUMENT_DEPTH} levels`;
    throw invalidRequest(message, [{ path: 'tool_call.arguments', message }]);
  }
  if (Array.isArray(value)) return `[${value.map((v) => render(v, depth + 1)).join(',')}]`;
  const record = value as Record<string, unknown>;
  const members: string[] = [];
  for (const key of Object.keys(record).sort()) {
    const v = record[key];
    if (v === undefined || typeof v === 'function' || typeof v === 'symbol') continue;
    members.push(`${JSON.stringify(key)}:${render(v, depth + 1)}`);
  }
  return `{${members.join(',')}}`;
}

/** The canonical string of a call; equal strings ⇔ the same call. */
export function canonicalCall(call: CallIdentity): string {
  // Members in sorted key order, so the whole string is canonical JSON too.
  const text = (v: string | null | undefined) => (v === undefined || v === null ? 'null' : JSON.stringify(v));
  return `{"args":${canonicalJson(call.arguments ?? {})},"org":${text(call.orgId)},"session":${text(call.sessionId)},"tool":${text(call.toolName)},"user":${text(call.userId)},"v":${FINGERPRINT_VERSION}}`;
}
