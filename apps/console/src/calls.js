// Pure helpers for tool calls, approvals and intentions' tools (no DOM, no imports: unit-tested in Node).

/** Tool-name patterns from text: separated by commas and/or new lines, blanks dropped. */
export function parsePatterns(text) {
  return String(text ?? '')
    .split(/[,\n]/)
    .map((p) => p.trim())
    .filter(Boolean);
}

/** The patterns as the edit form shows them: one per line. */
export const patternsText = (tools) => (tools ?? []).join('\n');

/** An error of the console's own (bad JSON typed by the operator), shown like the API's. */
export class InputError extends Error {
  constructor(path, message) {
    super('The input is invalid.');
    this.code = 'invalid_input';
    this.details = [{ path, message }];
  }
}

/** Tool-call arguments typed as JSON: empty → undefined, else a JSON object (or an InputError naming `path`). */
export function parseArguments(text, path = 'arguments') {
  const t = String(text ?? '').trim();
  if (!t) return undefined;
  let value;
  try {
    value = JSON.parse(t);
  } catch (e) {
    throw new InputError(path, `is not valid JSON (${e.message})`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new InputError(path, 'must be a JSON object, e.g. {"id": "42"}');
  return value;
}

/** A call's arguments for a person to read: indented JSON ({} when none). */
export const formatArguments = (args) => JSON.stringify(args ?? {}, null, 2);

/** A confidence in [0, 1] as a whole percent ("—" when absent). */
export const percent = (c) => (typeof c === 'number' && Number.isFinite(c) ? `${Math.round(c * 100)}%` : '—');

/** Why an approval asks a human, in words. */
export function reasonText(approval) {
  if (approval.reason_code === 'uncertain_match') return 'Uncertain match';
  if (approval.reason_code === 'approval_required') return 'Approval required';
  return approval.source === 'mcp_proxy' ? 'Mandate decision' : 'Approval required';
}

/** Whether deciding it can teach the gateway (a legacy-path request with its call). */
export const teachable = (approval) => approval.source === 'evaluate' && Boolean(approval.tool_call);
