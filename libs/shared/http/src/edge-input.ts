import { isUtf8 } from 'node:buffer';
import sjson from 'secure-json-parse';
import { invalidRequest, type AppError } from '@igw/kernel';

/**
 * The input rules of DESIGN 6.12 that hold for every route, checked once at the edge (the JSON
 * content-type parser and an onRequest hook) before any validation pipe: nothing the store would
 * refuse (NUL, lone surrogates) and nothing that would make a validator recurse without end (deep
 * nesting) ever reaches a controller. Every refusal is a 400 `invalid_request` naming the field.
 */

/** JSON nesting the body may have: `{"a":1}` is one level, `{"a":{"b":1}}` two. */
export const MAX_BODY_DEPTH = 32;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const COMMA = 0x2c;

/** One open container of the scan: where its current member is (a key's raw span or an index). */
interface Frame {
  array: boolean;
  index: number;
  keyStart: number;
  keyEnd: number;
  expectKey: boolean;
}

/**
 * Where the first container deeper than `max` opens in the raw JSON `text`, as a field path
 * ('' when that cannot be told, e.g. the body is not JSON either); null when none is. One linear
 * pass over the characters, outside strings only, keeping at most `max` frames: a 10,000-level
 * body costs what its first few hundred bytes cost and nothing recurses.
 */
export function pathBeyondDepth(text: string, max = MAX_BODY_DEPTH): string | null {
  const frames: Frame[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    switch (c) {
      case QUOTE: {
        // Jump over the string (indexOf is far faster than a character loop on long values).
        let end = text.indexOf('"', i + 1);
        while (end > 0 && isEscaped(text, end)) end = text.indexOf('"', end + 1);
        if (end < 0) return null; // unterminated: not JSON, the parser refuses it
        const top = frames[frames.length - 1];
        if (top && !top.array && top.expectKey) {
          top.keyStart = i;
          top.keyEnd = end + 1;
          top.expectKey = false;
        }
        i = end;
        break;
      }
      case OPEN_OBJECT:
      case OPEN_ARRAY:
        if (frames.length >= max) return pathOf(text, frames);
        frames.push({ array: c === OPEN_ARRAY, index: 0, keyStart: -1, keyEnd: -1, expectKey: c === OPEN_OBJECT });
        break;
      case CLOSE_OBJECT:
      case CLOSE_ARRAY:
        frames.pop();
        break;
      case COMMA: {
        const top = frames[frames.length - 1];
        if (top?.array) top.index++;
        else if (top) top.expectKey = true;
        break;
      }
    }
  }
  return null;
}

/** True when the quote at `at` is escaped: an odd run of backslashes precedes it. */
function isEscaped(text: string, at: number): boolean {
  let n = 0;
  while (text.charCodeAt(at - 1 - n) === BACKSLASH) n++;
  return n % 2 === 1;
}

/** The field path of the member each frame is at (the container about to open is the last one's). */
function pathOf(text: string, frames: readonly Frame[]): string {
  let path = '';
  for (const f of frames) {
    if (f.array) {
      path += `[${f.index}]`;
      continue;
    }
    if (f.keyStart < 0) return ''; // not JSON anyway: no member to name
    path = join(path, keyText(text.slice(f.keyStart, f.keyEnd)));
  }
  return path;
}

function keyText(raw: string): string {
  try {
    return String(JSON.parse(raw));
  } catch {
    return raw.slice(1, -1);
  }
}

const join = (parent: string, key: string) => (parent ? `${parent}.${key}` : key);

// Node ≥ 20 has String.prototype.isWellFormed (ES2024); the project's TypeScript lib is ES2023.
const isWellFormed = (s: string): boolean => (s as unknown as { isWellFormed(): boolean }).isWellFormed();

export type StringProblem = 'nul' | 'lone_surrogate';

export interface UnstorableString {
  /** Field path ('' = the body itself). */
  path: string;
  problem: StringProblem;
  /** The object key at `path` is at fault, not its value. */
  key: boolean;
}

function problemOf(s: string): StringProblem | null {
  if (s.includes('\u0000')) return 'nul';
  return isWellFormed(s) ? null : 'lone_surrogate';
}

/**
 * The first string value or object key (document order) that PostgreSQL text/jsonb cannot hold:
 * one with a NUL or with a lone surrogate. Iterative (an explicit stack), so no depth can
 * overflow it.
 */
export function findUnstorableString(value: unknown): UnstorableString | null {
  // `key` set: the item is that object key (at `path`), checked before the value under it.
  const stack: { v: unknown; path: string; key?: string }[] = [{ v: value, path: '' }];
  for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
    const { v, path, key } = item;
    const text = key ?? v;
    if (typeof text === 'string') {
      const problem = problemOf(text);
      if (problem) return { path, problem, key: key !== undefined };
    } else if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push({ v: v[i], path: `${path}[${i}]` });
    } else if (v !== null && typeof v === 'object') {
      const entries = Object.entries(v);
      for (const [k, child] of entries.reverse()) {
        const childPath = join(path, k);
        stack.push({ v: child, path: childPath }, { v: undefined, path: childPath, key: k });
      }
    }
  }
  return null;
}

/** 400 naming `path` for an unstorable string. */
export function unstorableStringError(found: UnstorableString): AppError {
  const where = found.path || 'body';
  const what = found.key ? `key ${where}` : where;
  const message =
    found.problem === 'nul'
      ? `${what} must not contain the NUL character (\\u0000)`
      : `${what} is not valid Unicode: it contains a lone surrogate (\\ud800-\\udfff without its pair)`;
  return invalidRequest(message, [{ path: where, message }]);
}

/** A surrogate or NUL can only enter a JSON body as a \u escape: bodies without one skip the walk. */
const MAY_HOLD_UNSTORABLE = /\\u(?:0000|[dD][89a-fA-F])/;

/**
 * The request body as the edge accepts it: valid UTF-8, JSON nested at most MAX_BODY_DEPTH
 * levels (checked on the raw text, before parsing), no prototype poisoning, and no string or key
 * with a NUL or a lone surrogate. Empty bodies are `undefined`. Throws a 400 AppError otherwise.
 */
export function parseJsonBody(raw: Buffer | string): unknown {
  if (typeof raw !== 'string' && !isUtf8(raw)) throw invalidRequest('request body is not valid UTF-8');
  const text = typeof raw === 'string' ? raw : raw.toString('utf8');
  if (text.trim() === '') return undefined;
  const deep = pathBeyondDepth(text);
  if (deep !== null) {
    const where = deep || 'body';
    const message = `body is nested deeper than ${MAX_BODY_DEPTH} levels${deep ? ` (at ${abbreviate(deep)})` : ''}`;
    throw invalidRequest(message, [{ path: where, message: `nests deeper than ${MAX_BODY_DEPTH} levels` }]);
  }
  let parsed: unknown;
  try {
    parsed = sjson.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' });
  } catch (err) {
    throw invalidRequest(jsonProblem(err));
  }
  if (MAY_HOLD_UNSTORABLE.test(text)) {
    const found = findUnstorableString(parsed);
    if (found) throw unstorableStringError(found);
  }
  return parsed;
}

/** What is wrong with a body JSON.parse (or secure-json-parse) refused: where, never the text around it. */
function jsonProblem(err: unknown): string {
  const message = err instanceof Error ? err.message : '';
  if (/prototype property/.test(message)) return 'request body is not valid JSON here: keys named __proto__, or constructor holding prototype, are refused';
  const at = /at position (\d+)/.exec(message);
  if (at) return `request body is not valid JSON: syntax error at byte ${at[1]}`;
  if (/end of JSON input/.test(message)) return 'request body is not valid JSON: it ends too early';
  return 'request body is not valid JSON';
}

const abbreviate = (path: string) => (path.length > 200 ? `${path.slice(0, 200)}…` : path);

/** Why a URL component is refused, or null when it is fine. */
function componentProblem(raw: string): string | null {
  let decoded: string;
  try {
    decoded = raw.includes('%') ? decodeURIComponent(raw) : raw;
  } catch {
    return 'is not valid percent-encoded UTF-8';
  }
  const problem = problemOf(decoded);
  if (problem === 'nul') return 'must not contain the NUL character (%00)';
  if (problem === 'lone_surrogate') return 'is not valid Unicode: it contains a lone surrogate';
  return null;
}

/**
 * 400 for the first query parameter whose name or value is malformed percent-encoding, invalid
 * UTF-8 (e.g. %FF, or %ED%A0%80, an encoded surrogate), or decodes to a NUL; null when all are
 * fine. Fastify's parser keeps such text verbatim ("%FF") instead of refusing it, and a NUL
 * reaches the store. `query` is the raw text after `?`.
 */
export function queryError(query: string): AppError | null {
  if (!query.includes('%')) return null; // the only way in for anything refused here
  for (const pair of query.split('&')) {
    if (!pair.includes('%')) continue;
    const eq = pair.indexOf('=');
    const rawName = eq < 0 ? pair : pair.slice(0, eq);
    const nameProblem = componentProblem(rawName);
    if (nameProblem) {
      const message = `query parameter name ${rawName} ${nameProblem}`;
      return invalidRequest(message, [{ path: rawName, message }]);
    }
    const valueProblem = eq < 0 ? null : componentProblem(pair.slice(eq + 1));
    if (valueProblem) {
      const name = decodeURIComponent(rawName.replace(/\+/g, ' '));
      const message = `${name} ${valueProblem}`;
      return invalidRequest(message, [{ path: name, message }]);
    }
  }
  return null;
}

/**
 * 400 for the first path parameter (already decoded by the router, which refuses malformed
 * encodings itself) holding a NUL or a lone surrogate; null when all are fine. A wildcard
 * (`*`, a proxy's catch-all) is named `path`.
 */
export function pathParamsError(params: unknown): AppError | null {
  if (params === null || typeof params !== 'object') return null;
  for (const [name, value] of Object.entries(params)) {
    if (typeof value !== 'string') continue;
    const problem = problemOf(value);
    if (!problem) continue;
    const field = name === '*' ? 'path' : name;
    const message = problem === 'nul' ? `${field} must not contain the NUL character (%00)` : `${field} is not valid Unicode: it contains a lone surrogate`;
    return invalidRequest(message, [{ path: field, message }]);
  }
  return null;
}

/** The URL checks of an incoming request (onRequest, before routing reaches Nest). */
export function urlInputError(url: string, params: unknown): AppError | null {
  const q = url.indexOf('?');
  return (q >= 0 ? queryError(url.slice(q + 1)) : null) ?? pathParamsError(params);
}
