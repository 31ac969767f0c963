import { invalidRequest } from './errors';

/**
 * Deeper nesting is refused (400) rather than risk the stack: a 256 KiB body can nest far deeper
 * than any tool's arguments do, and fuzzed bodies must get 400, never 500.
 */
export const MAX_CANONICAL_DEPTH = 64;

/**
 * Canonical JSON of a JSON value: object keys sorted by UTF-16 code units at every level, no
 * whitespace, arrays in order, numbers and strings as `JSON.stringify` writes them (the same
 * rules as RFC 8785 for JSON input). Like `JSON.stringify`, `undefined`/functions are dropped
 * from objects and become `null` in arrays, and non-finite numbers become `null`. How services
 * recognise "the same call" (approvals: DESIGN 6.4 and 6.9). `field` names the input in the 400
 * a too-deep value gets.
 */
export function canonicalJson(value: unknown, field = 'value'): string {
  return render(value, 0, field);
}

function render(value: unknown, depth: number, field: string): string {
  if (value === null || typeof value === 'boolean') return String(value);
  if (typeof value === 'number') return Number.isFinite(value) ? JSON.stringify(value) : 'null';
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value !== 'object') return 'null';
  if (depth >= MAX_CANONICAL_DEPTH) {
    // Containers count from 0 (the value itself).
    const message = `${field} must not nest deeper than ${MAX_CANONICAL_DEPTH} levels`;
    throw invalidRequest(message, [{ path: field, message }]);
  }
  if (Array.isArray(value)) return `[${value.map((v) => render(v, depth + 1, field)).join(',')}]`;
  const record = value as Record<string, unknown>;
  const members: string[] = [];
  for (const key of Object.keys(record).sort()) {
    const v = record[key];
    if (v === undefined || typeof v === 'function' || typeof v === 'symbol') continue;
    members.push(`${JSON.stringify(key)}:${render(v, depth + 1, field)}`);
  }
  return `{${members.join(',')}}`;
}

/** 400 naming `field` when `value` nests deeper than MAX_CANONICAL_DEPTH (what canonicalJson refuses), without rendering it. */
export function assertJsonDepth(value: unknown, field: string): void {
  const tooDeep = (v: unknown, depth: number): boolean => {
    if (typeof v !== 'object' || v === null) return false;
    if (depth >= MAX_CANONICAL_DEPTH) return true;
    for (const child of Array.isArray(v) ? v : Object.values(v)) if (tooDeep(child, depth + 1)) return true;
    return false;
  };
  if (tooDeep(value, 0)) {
    const message = `${field} must not nest deeper than ${MAX_CANONICAL_DEPTH} levels`;
    throw invalidRequest(message, [{ path: field, message }]);
  }
}
