import type { ClassificationInput } from './call-query';

/**
 * What makes two calls of one tool "the same call" for teaching (DESIGN 6.15): the same tool and
 * the same *shape* — every argument that chooses what the call does must agree, while the values
 * that only name what it acts on are free. Choosing: the statements and structure of an SQL text
 * or a query fragment (`StageName = ? AND Amount > ?`, `SUM(Amount)`; literals aside), a command line's sub-command, an operation, method or GraphQL operation, a
 * URL's host and a path's top directory, booleans (`force: true`), and words that read as enum
 * values or field names (`resourceType: "secret"`, `properties: ["email", "phone"]`,
 * `propertyName: "lifecyclestage"`), and the type an id carries (`ari:…:jira:…:issue/1` is not
 * `ari:…:confluence:…:page/2`; `cus_…` is not `in_…`). Free: the ids themselves, numbers, dates,
 * e-mail addresses, free text. The
 * keys must be the same: leaving out `customer` turns one customer's lookup into a listing.
 * So `run_query` with another SELECT of the same shape is like a taught one; with a DELETE, or
 * another SELECT, it is another call; `kubectl` `get pods` is not `delete pod`.
 */
export interface CallSignature {
  readonly tool: string;
  /** The call's shape, canonical: equal strings are like calls. */
  readonly shape: string;
}

// A string that is SQL: it starts with a statement keyword (after comments and parentheses).
const SQL_START =
  /^\s*(?:--[^\n]*\n\s*|\/\*[\s\S]*?\*\/\s*|\(\s*)*(select|with|explain|insert|update|delete|truncate|drop|alter|create|grant|revoke|copy|merge|upsert|call|do|vacuum|analyze|set|show|begin|commit|rollback|comment|refresh|reindex|lock|execute|prepare)\b/i;
const GRAPHQL_START = /^\s*(mutation|subscription|query)\b/i;
const COMMAND_KEYS = new Set(['command', 'subcommand', 'cmd', 'args', 'argv']);
// Words a command line starts with that name the program, not the action (`kubectl delete pod`).
const PROGRAMS = new Set(['kubectl', 'git', 'gh', 'helm', 'docker', 'aws', 'gcloud', 'az', 'npm', 'sudo', 'psql', 'redis-cli', 'sf', 'stripe']);
const URL = /^[a-z][a-z0-9+.-]*:\/\/([^/?#\s]+)/i;
const FILE_PATH = /^(~|\.{0,2})?\/([^/\s]+)/;
// A query fragment (`IsClosed = false AND Amount > 5`, `SUM(Amount) total`): a comparison or a call.
const EXPRESSION = /[=<>]|[A-Za-z_]\(/;
// An enum value or a field name: a word (letters, `_ . : -`), no digits, no spaces.
const ENUM_WORD = /^[A-Za-z][A-Za-z_.:-]{0,39}$/;
// Ids that carry their object's type: `ari:cloud:jira:…:issue/10482`, `crm://contacts/42`, `cus_Nf82kd0`.
const TYPED_ID = /^[A-Za-z][A-Za-z0-9+.-]*:\S+$|^\S*\/\S*$/;
const PREFIXED_ID = /^([a-z]{2,8})_[A-Za-z0-9]{2,}$/;
const MAX_DEPTH = 4;

/** The type words of an id: its segments without digits (`ari:cloud:jira:issue`). */
const idType = (value: string) =>
  value
    .split(/[:/]+/)
    .filter((w) => /^[A-Za-z][A-Za-z_.-]*$/.test(w))
    .join(':')
    .toLowerCase();
const MAX_PARTS = 200;

/** SQL without its literals: `select * from t where id = ?`. */
function sqlShape(text: string): string {
  return text
    .replace(/'(?:[^']|'')*'/g, '?')
    .replace(/\b\d+(?:\.\d+)?\b/g, '?')
    .replace(/\s+/g, ' ')
    .replace(/[\s;]+$/, '')
    .trim()
    .toLowerCase();
}

function commandShape(value: unknown): string | null {
  const text = Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string').join(' ') : typeof value === 'string' ? value : '';
  const words = text
    .trim()
    .toLowerCase()
    .split(/\s+/)
    .filter((w) => w !== '' && !w.startsWith('-'));
  while (words.length > 0 && PROGRAMS.has(words[0] ?? '')) words.shift();
  return words.length === 0 ? null : words.slice(0, 2).join(' ');
}

function stringShape(path: string, key: string, value: string): string {
  if (COMMAND_KEYS.has(key.toLowerCase()) && !SQL_START.test(value)) return `${path}=cmd(${commandShape(value) ?? ''})`;
  if (SQL_START.test(value)) return `${path}=sql(${sqlShape(value)})`;
  const graphql = GRAPHQL_START.exec(value);
  if (graphql && /[{(]/.test(value)) return `${path}=graphql:${(graphql[1] ?? '').toLowerCase()}`;
  const url = URL.exec(value);
  if (url) return `${path}@${(url[1] ?? '').toLowerCase()}`;
  const file = FILE_PATH.exec(value);
  if (file) return `${path}:${file[1] ?? ''}/${file[2] ?? ''}`;
  if (ENUM_WORD.test(value)) return `${path}=${value.toLowerCase()}`;
  if (EXPRESSION.test(value) && value.length <= 2000) return `${path}=expr(${sqlShape(value)})`;
  if (value.length <= 500 && TYPED_ID.test(value)) return `${path}~${idType(value)}`;
  const prefixed = PREFIXED_ID.exec(value);
  if (prefixed) return `${path}~${prefixed[1] ?? ''}_`;
  return path;
}

function walk(value: unknown, path: string, key: string, depth: number, out: Set<string>): void {
  if (out.size >= MAX_PARTS) return;
  if (depth > MAX_DEPTH) {
    out.add(`${path}:deep`);
    return;
  }
  if (typeof value === 'string') out.add(stringShape(path, key, value));
  else if (typeof value === 'boolean' || value === null) out.add(`${path}=${String(value)}`);
  else if (Array.isArray(value)) {
    if (COMMAND_KEYS.has(key.toLowerCase()) && value.every((v) => typeof v === 'string')) out.add(`${path}=cmd(${commandShape(value) ?? ''})`);
    else if (value.length > 0 && value.every((v) => typeof v === 'string' && ENUM_WORD.test(v)))
      out.add(`${path}=[${[...new Set(value.map((v) => (v as string).toLowerCase()))].sort().join(',')}]`);
    else {
      out.add(`${path}[]`);
      for (const v of value.slice(0, 50)) walk(v, `${path}[]`, key, depth + 1, out);
    }
  } else if (typeof value === 'object') {
    out.add(`${path}{}`);
    for (const [k, v] of Object.entries(value as Record<string, unknown>).slice(0, 50)) walk(v, `${path}.${k}`, k, depth + 1, out);
  } else out.add(path); // numbers (and anything else): free
}

/** The signature of a call (see CallSignature). */
export function callSignature(input: Pick<ClassificationInput, 'toolName' | 'arguments'>): CallSignature {
  const parts = new Set<string>();
  for (const [key, value] of Object.entries(input.arguments ?? {}).slice(0, 100)) walk(value, key, key, 0, parts);
  return { tool: input.toolName, shape: [...parts].sort().join('\n') };
}

/** Whether `call` is like `example`: the same tool and the same shape. */
export function isLike(call: CallSignature, example: CallSignature): boolean {
  return call.tool === example.tool && call.shape === example.shape;
}
