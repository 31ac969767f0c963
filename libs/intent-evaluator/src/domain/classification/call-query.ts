import { ACTION_VERBS, tokenize, type QueryTerm } from '@igw/lexical-index';

/** What the lexical layer reads from an evaluate request. */
export interface ClassificationInput {
  toolName: string;
  arguments?: Readonly<Record<string, unknown>>;
  conversationContext?: readonly { role: string; content: string }[];
}

/** Where a query term came from; its weight says how much that source is trusted. */
export const SOURCE_WEIGHTS = {
  toolName: 1,
  argumentKey: 0.25,
  argumentValue: 0.35,
  argumentPath: 0.2,
  conversation: 0.3,
} as const;
export type Source = keyof typeof SOURCE_WEIGHTS;

// Bounds so a huge argument object or chat history cannot make classification expensive.
const MAX_VALUE_CHARS = 200;
const MAX_VALUE_TERMS = 40;
const MAX_CONTEXT_TERMS = 60;
const MAX_DEPTH = 3;

/**
 * Builds the weighted query of a tool call: tool-name words at full weight, argument keys (at
 * any nesting depth up to 3), short natural-language argument values and the last few chat
 * messages at lower weights. A term seen in several sources keeps its highest weight (a word
 * repeated in chat does not outvote the tool name).
 */
export function buildQuery(input: ClassificationInput, contextMessages = 3, action = callAction(input)): QueryTerm[] {
  const best = new Map<string, { weight: number; source: Source }>();
  const add = (terms: readonly string[], source: Source) => {
    const weight = SOURCE_WEIGHTS[source];
    for (const t of terms) if ((best.get(t)?.weight ?? 0) < weight) best.set(t, { weight, source });
  };
  // A generic tool (execute_sql, run_soql_query, salesforce_dml_records) takes its action from
  // its arguments: that verb comes first and replaces the name's (`query` → read is not what an
  // UPDATE statement does).
  if (action.generic && action.verb !== undefined) add([action.verb], 'toolName');
  add(
    tokenize(input.toolName).filter((t) => !(action.generic && ACTION_VERBS.has(t))),
    'toolName',
  );

  const keys: string[] = [];
  const values: string[] = [];
  const paths: string[] = [];
  const walk = (value: unknown, depth: number) => {
    if (depth > MAX_DEPTH) return;
    if (typeof value === 'string') {
      if (values.length >= MAX_VALUE_TERMS) return;
      if (isNaturalText(value)) values.push(...tokenize(value, { dropDigits: true, prose: true, concepts: false }));
      // A URL's host and path, a file path's directories: `status.supabase.com`, `/workspace/repos/api`.
      else if (isLocator(value)) paths.push(...tokenize(value, { dropDigits: true, prose: true, concepts: false }));
    } else if (Array.isArray(value)) {
      for (const v of value.slice(0, 20)) walk(v, depth + 1);
    } else if (value !== null && typeof value === 'object') {
      for (const [k, v] of Object.entries(value as Record<string, unknown>).slice(0, 50)) {
        keys.push(...tokenize(k, { dropDigits: true, concepts: false }));
        walk(v, depth + 1);
      }
    }
  };
  if (input.arguments) walk(input.arguments, 0);
  add(keys, 'argumentKey');
  add(values.slice(0, MAX_VALUE_TERMS), 'argumentValue');
  add(paths.slice(0, MAX_VALUE_TERMS), 'argumentPath');

  const recent = (input.conversationContext ?? []).filter((m) => m.role !== 'system' && m.role !== 'tool').slice(-contextMessages);
  const chat: string[] = [];
  for (const m of recent.reverse()) chat.push(...tokenize(m.content.slice(0, 2000), { dropDigits: true, prose: true }));
  add(chat.slice(0, MAX_CONTEXT_TERMS), 'conversation');

  return [...best].map(([term, { weight, source }]) => ({ term, weight, source }));
}

/**
 * SQL statements by their shape, not just their first word (prose such as "Update the doc" is
 * not a statement): the action each one takes.
 */
const SQL_STATEMENTS: readonly (readonly [RegExp, string])[] = [
  [/^\s*copy\b[\s\S]*\bto\b/i, 'export'],
  [/^\s*(?:select\b[\s\S]*\bfrom\b|with\s+\w+\s+as\s*\(|explain\s)/i, 'read'],
  [/^\s*(?:insert\s+into\b|update\s+\S+\s+set\b|upsert\s|merge\s+into\b|copy\s+\S+\s+from\b)/i, 'write'],
  [/^\s*(?:delete\s+from\b|truncate\s)/i, 'delete'],
  [
    /^\s*(?:drop|alter|create(?:\s+or\s+replace)?)\s+(?:table|index|view|materialized|schema|type|function|extension|policy|role|trigger|sequence|column|database)\b/i,
    'write',
  ],
  [/^\s*(?:grant|revoke)\s[\s\S]*\b(?:on|to|from)\b/i, 'write'],
];
const OPERATION_KEYS = new Set(['operation', 'action', 'op', 'method', 'verb']);

/** The action of an SQL statement among the arguments (see SQL_STATEMENTS), or null. */
export function statementVerb(args: Readonly<Record<string, unknown>>): string | null {
  for (const value of Object.values(args).slice(0, 50)) {
    if (typeof value !== 'string') continue;
    for (const [statement, verb] of SQL_STATEMENTS) if (statement.test(value)) return verb;
  }
  return null;
}

function operationVerb(args: Readonly<Record<string, unknown>>): string | null {
  for (const [key, value] of Object.entries(args).slice(0, 50)) {
    if (typeof value === 'string' && OPERATION_KEYS.has(key.toLowerCase()) && /^[A-Za-z_-]{2,20}$/.test(value)) {
      const [term] = tokenize(value);
      if (term !== undefined && ACTION_VERBS.has(term)) return term;
    }
  }
  return null;
}

/**
 * The call's action and whether the tool is generic. An SQL statement in the arguments always
 * decides (whatever the name says: `run_query` with an UPDATE writes); otherwise the name's first
 * action verb; a name without one takes an `operation`-like argument's. A generic tool's name
 * words are the tool's, not objects of the call.
 */
export function callAction(input: ClassificationInput): { verb?: string; generic: boolean } {
  const statement = input.arguments ? statementVerb(input.arguments) : null;
  if (statement !== null) return { verb: statement, generic: true };
  const named = tokenize(input.toolName).find((t) => ACTION_VERBS.has(t));
  if (named !== undefined) return { verb: named, generic: false };
  const operation = input.arguments ? operationVerb(input.arguments) : null;
  return operation !== null ? { verb: operation, generic: true } : { generic: false };
}

/**
 * A string argument is read as words only when it looks like text, not an identifier: no
 * URL or e-mail address, and either contains a space or is a short word without digits
 * ("csv", "vacation"). Ids such as `cus_Nf82kd0` or `00u1ab2cd3` are skipped.
 */
function isNaturalText(value: string): boolean {
  if (value.length === 0 || value.length > MAX_VALUE_CHARS) return false;
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(value) || /\S+@\S+\.\S+/.test(value)) return false;
  if (/\s/.test(value)) return true;
  // A single token counts only as a plain word or enum (`vacation`, `requested_by_customer`),
  // not a path, file name or key (`contacts.csv`, `fix/backoff`, `cus_Nf82kd0`).
  return /^[A-Za-z][A-Za-z_-]*$/.test(value);
}

/** A URL or a file path (`https://status.supabase.com/api`, `/workspace/repos/api/main.go`). */
function isLocator(value: string): boolean {
  return value.length <= MAX_VALUE_CHARS && (/^[a-z][a-z0-9+.-]*:\/\/\S+$/i.test(value) || /^(?:~|\.{0,2})\/[^\s]+$/.test(value));
}
