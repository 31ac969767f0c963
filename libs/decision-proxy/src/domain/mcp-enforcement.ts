import { mcpToolOf } from './mcp-server';

/**
 * What the MCP enforcement proxy does with a decided `tools/call` (DESIGN 6.13): forward a call
 * (maybe another tool, maybe with fewer arguments, maybe masking the result) or refuse it with
 * a tool error the model can read. Pure: the decision as it went on the wire in, a plan out.
 */
export type McpCallPlan =
  | {
      forward: true;
      /** The tool to call on the same server: the asked one, or a downgrade's / substitute's. */
      tool: string;
      arguments: Record<string, unknown>;
      /** Paths in the result's `structuredContent` to mask (allow_with_redact `result.*`). */
      maskResult: string[][];
    }
  | { forward: false; text: string };

/** What the decision says to the agent when the call is not forwarded, and what to do next. */
const NEXT_STEP: Record<string, (d: Record<string, unknown>) => string> = {
  negotiate: (d) => `negotiate: ${String(d['message'] ?? 'the call is outside the mandate')}; retry with structuredContent.decision.suggested_action`,
  approval: (d) => `approval required: wait until approval request ${String(d['approval_request_id'])} is approved, then repeat the identical call`,
  step_up: (d) => `step_up: a mandate with acr ${String(d['required_acr'])} or stronger is required`,
  deny: (d) => `deny (${String(d['reason'] ?? 'denied')}): ${String(d['message'] ?? '')}`.trim(),
  deny_with_reroute: (d) => `deny_with_reroute: ${String(d['message'] ?? '')}; use intent card ${String(d['reroute_card_id'])}`,
};

const FORWARDED = new Set(['allow', 'allow_with_log_extra', 'allow_with_shadow', 'defer', 'allow_with_redact', 'allow_with_downgrade', 'substitute']);

/** `a.b.c` → ['a','b','c']; empty segments make the path unusable. */
const pathOf = (field: string): string[] | null => {
  const parts = field.split('.');
  return parts.every((p) => p !== '') ? parts : null;
};

/**
 * Redact fields: `arguments.x.y` are removed from the arguments before forwarding, `result.x.y`
 * are masked in the result's `structuredContent`; a name without either prefix means both (the
 * field is neither sent upstream nor shown back).
 */
export function redactionOf(fields: readonly string[]): { drop: string[][]; mask: string[][] } {
  const drop: string[][] = [];
  const mask: string[][] = [];
  for (const field of fields) {
    const path = pathOf(field);
    if (path === null) continue;
    if (path[0] === 'arguments' && path.length > 1) drop.push(path.slice(1));
    else if (path[0] === 'result' && path.length > 1) mask.push(path.slice(1));
    else {
      drop.push(path);
      mask.push(path);
    }
  }
  return { drop, mask };
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A deep copy of `value` without the fields at `paths` (absent paths are ignored). */
export function withoutPaths(value: Record<string, unknown>, paths: readonly string[][]): Record<string, unknown> {
  const copy = structuredClone(value);
  for (const path of paths) {
    let node: unknown = copy;
    for (let i = 0; i < path.length - 1 && isObject(node); i++) node = node[path[i] as string];
    if (isObject(node)) delete node[path[path.length - 1] as string];
  }
  return copy;
}

export const MASK = '[redacted]';

/** A deep copy of `value` with the fields at `paths` replaced by MASK (present ones only). */
export function maskPaths(value: Record<string, unknown>, paths: readonly string[][]): Record<string, unknown> {
  const copy = structuredClone(value);
  for (const path of paths) {
    let node: unknown = copy;
    for (let i = 0; i < path.length - 1 && isObject(node); i++) node = node[path[i] as string];
    const last = path[path.length - 1] as string;
    if (isObject(node) && Object.hasOwn(node, last)) node[last] = MASK;
  }
  return copy;
}

/** The values at `paths` of `value` (those present), as they would be written in text. */
function valuesAt(value: Record<string, unknown>, paths: readonly string[][]): string[] {
  const found: string[] = [];
  for (const path of paths) {
    let node: unknown = value;
    for (const key of path) node = isObject(node) ? node[key] : undefined;
    if (typeof node === 'string') found.push(node);
    else if (node !== undefined && node !== null && typeof node !== 'boolean') found.push(JSON.stringify(node));
  }
  return found;
}

/** A tool result as far as masking is concerned: its structured content and its content blocks. */
export interface MaskableToolResult {
  structuredContent?: unknown;
  content?: unknown;
  [key: string]: unknown;
}

/**
 * A tool result with the fields at `paths` masked everywhere the agent would read them: in
 * `structuredContent`, in a text block that is JSON (masked as an object), and — since servers
 * usually repeat their structured content as text — every other occurrence in text blocks of a
 * masked value (strings of 3 or more characters, numbers and objects as JSON).
 */
export function maskToolResult<T extends MaskableToolResult>(result: T, paths: readonly string[][]): T {
  if (paths.length === 0) return result;
  const secrets = new Set<string>();
  const out: MaskableToolResult = { ...result };
  if (isObject(result.structuredContent)) {
    for (const v of valuesAt(result.structuredContent, paths)) secrets.add(v);
    out.structuredContent = maskPaths(result.structuredContent, paths);
  }
  if (Array.isArray(result.content)) {
    out.content = result.content.map((block: unknown) => {
      if (!isObject(block) || block['type'] !== 'text' || typeof block['text'] !== 'string') return block;
      let text = block['text'];
      try {
        const parsed: unknown = JSON.parse(text);
        if (isObject(parsed)) {
          for (const v of valuesAt(parsed, paths)) secrets.add(v);
          text = JSON.stringify(maskPaths(parsed, paths));
        }
      } catch {
        // Not JSON: plain text, masked by value below.
      }
      for (const secret of secrets) if (secret.length >= 3) text = text.split(secret).join(MASK);
      return { ...block, text };
    });
  }
  return out as T;
}

/** The call a downgrade or substitute names instead, on the same server; null when it cannot be made. */
function replacement(server: string, action: unknown, args: Record<string, unknown>): { tool: string; arguments: Record<string, unknown> } | string {
  if (!isObject(action)) return 'the decision names no replacement action';
  const operation = action['operation'];
  if (typeof operation !== 'string') return 'the replacement action names no operation';
  const tool = mcpToolOf(server, operation);
  if (tool === null) return `the replacement operation ${operation} is not a tool of server ${server}`;
  const replaced = action['arguments'];
  return { tool, arguments: isObject(replaced) ? structuredClone(replaced) : structuredClone(args) };
}

/** The plan for a wire decision on `tool` of `server` called with `args`. */
export function planMcpCall(server: string, tool: string, args: Record<string, unknown>, decision: Record<string, unknown>): McpCallPlan {
  const kind = String(decision['kind']);
  if (!FORWARDED.has(kind)) {
    const text = (NEXT_STEP[kind] ?? ((d) => `${kind}: not forwarded (${JSON.stringify(d)})`))(decision);
    return { forward: false, text };
  }
  if (kind === 'allow_with_redact') {
    const fields = decision['redact_fields'];
    const { drop, mask } = redactionOf(Array.isArray(fields) ? fields.filter((f): f is string => typeof f === 'string') : []);
    return { forward: true, tool, arguments: withoutPaths(args, drop), maskResult: mask };
  }
  if (kind === 'allow_with_downgrade' || kind === 'substitute') {
    const instead = replacement(server, decision[kind === 'substitute' ? 'replacement_action' : 'downgraded_action'], args);
    if (typeof instead === 'string') return { forward: false, text: `${kind}: ${instead}; the call was not made` };
    return { forward: true, ...instead, maskResult: [] };
  }
  return { forward: true, tool, arguments: args, maskResult: [] };
}

/** What the proxy reads of a legacy-path evaluation (DESIGN 6.4). */
export interface LegacyEvaluation {
  outcome: string;
  intent_label: string;
  approval_request_id: string | null;
  reason?: string | null;
}

/** Outcomes that let a legacy-path call through (`shadow_denied`: only asked for on a shadow server). */
const LEGACY_FORWARDED = new Set(['allowed', 'approved', 'shadow_denied']);

/** The plan for a call without a mandate, from its evaluation (DESIGN 6.13, legacy path). */
export function planLegacyMcpCall(tool: string, args: Record<string, unknown>, evaluation: LegacyEvaluation): McpCallPlan {
  if (LEGACY_FORWARDED.has(evaluation.outcome)) return { forward: true, tool, arguments: args, maskResult: [] };
  if (evaluation.outcome === 'pending_approval') {
    return {
      forward: false,
      text: `pending_approval: wait until approval request ${String(evaluation.approval_request_id)} is approved, then repeat the identical call`,
    };
  }
  const why = evaluation.reason ?? (evaluation.intent_label === 'ambient' ? 'ambient' : evaluation.outcome);
  return { forward: false, text: `${evaluation.outcome} (${why}): no published intention of this organisation allows ${tool} as called` };
}
