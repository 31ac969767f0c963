import type { ClassificationInput } from './call-query';

/**
 * What makes two calls of one tool "the same call" for teaching (DESIGN 6.15): the tool's name,
 * what the call does — the statements of SQL it carries, its operation-like argument, the
 * sub-command of a command line, the host of a URL it is given — and its argument keys. Values
 * beyond those are free: `run_query` with another SELECT is like a taught SELECT; with a DELETE
 * it is another call; `kubectl` `get pods` is not `delete pod`.
 */
export interface CallSignature {
  readonly tool: string;
  /** Sorted, `|`-joined action words; '' when the name alone says what the tool does. */
  readonly action: string;
  readonly keys: ReadonlySet<string>;
}

// A string that is SQL: it starts with a statement keyword (after comments and parentheses).
const SQL_START =
  /^\s*(?:--[^\n]*\n\s*|\/\*[\s\S]*?\*\/\s*|\(\s*)*(select|with|explain|insert|update|delete|truncate|drop|alter|create|grant|revoke|copy|merge|upsert|call|do|vacuum|analyze|set|show|begin|commit|rollback|comment|refresh|reindex|lock|execute|prepare)\b/i;
// Statements that change something, wherever they stand in the text (a CTE or a second statement).
const SQL_CHANGES =
  /\b(insert|update|delete|truncate|drop|alter|create|grant|revoke|copy|merge|upsert|call|do|vacuum|comment|refresh|reindex|lock|execute)\b/gi;
const GRAPHQL_START = /^\s*(mutation|subscription|query)\b/i;
const OPERATION_KEYS = new Set([
  'operation',
  'action',
  'op',
  'method',
  'verb',
  'command',
  'subcommand',
  'cmd',
  'args',
  'argv',
  'http_method',
  'request_method',
]);
// Words a command line starts with that name the program, not the action (`kubectl delete pod`).
const PROGRAMS = new Set(['kubectl', 'git', 'gh', 'helm', 'docker', 'aws', 'gcloud', 'az', 'npm', 'sudo', 'psql', 'redis-cli', 'sf', 'stripe']);
const URL = /^[a-z][a-z0-9+.-]*:\/\/([^/?#\s]+)/i;
const FILE_PATH = /^(~|\.{0,2})?\/([^/\s]+)/;

function sqlAction(text: string): string | null {
  const start = SQL_START.exec(text);
  if (!start) return null;
  const changes = new Set<string>();
  for (const m of text.matchAll(SQL_CHANGES)) changes.add((m[1] ?? '').toLowerCase());
  return changes.size > 0 ? `sql:${[...changes].sort().join('+')}` : `sql:${(start[1] ?? '').toLowerCase()}`;
}

function commandAction(value: unknown): string | null {
  const words = (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string').join(' ') : typeof value === 'string' ? value : '')
    .trim()
    .toLowerCase()
    .split(/\s+/)
    .filter((w) => w !== '' && !w.startsWith('-'));
  while (words.length > 0 && PROGRAMS.has(words[0] ?? '')) words.shift();
  return words.length === 0 ? null : `cmd:${words.slice(0, 2).join(' ')}`;
}

/** The signature of a call (see CallSignature). */
export function callSignature(input: Pick<ClassificationInput, 'toolName' | 'arguments'>): CallSignature {
  const actions = new Set<string>();
  const keys = new Set<string>();
  for (const [key, value] of Object.entries(input.arguments ?? {}).slice(0, 100)) {
    keys.add(key);
    if (OPERATION_KEYS.has(key.toLowerCase())) {
      const sql = typeof value === 'string' ? sqlAction(value) : null;
      const action = sql ?? commandAction(value);
      if (action !== null) actions.add(`${key}=${action}`);
      continue;
    }
    if (typeof value !== 'string') continue;
    const sql = sqlAction(value);
    if (sql !== null) {
      actions.add(sql);
      continue;
    }
    const graphql = GRAPHQL_START.exec(value);
    if (graphql && /[{(]/.test(value)) {
      actions.add(`graphql:${(graphql[1] ?? '').toLowerCase()}`);
      continue;
    }
    const url = URL.exec(value);
    if (url) {
      actions.add(`${key}@${(url[1] ?? '').toLowerCase()}`);
      continue;
    }
    const path = FILE_PATH.exec(value);
    if (path) actions.add(`${key}:${path[1] ?? ''}/${path[2] ?? ''}`);
  }
  return { tool: input.toolName, action: [...actions].sort().join('|'), keys };
}

/**
 * Whether `call` is like `example`: the same tool and action, and no argument the example did
 * not have (an extra argument — `force`, `cascade` — can change what a call does).
 */
export function isLike(call: CallSignature, example: CallSignature): boolean {
  if (call.tool !== example.tool || call.action !== example.action) return false;
  for (const k of call.keys) if (!example.keys.has(k)) return false;
  return true;
}
