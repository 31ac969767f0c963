/**
 * Scope globs: the pattern language of intent-card and mandate scopes, shared by the mandate
 * issuer (dispense: "is the requested scope inside the card's?") and the decision proxy ("is this
 * operation / target_resource inside the mandate's?"), so both read a pattern the same way.
 *
 * Values are operations (`crm.contacts.read`) and resources (`crm://contacts/123`,
 * `s3://bucket/key`). A value is cut into segments by the separators `.`, `/` and `:`.
 *
 * - `*` matches any run of characters (possibly none) within one segment: never a separator.
 * - `**` matches any run of characters (possibly none), separators included. A run of three or
 *   more stars means the same as `**`.
 * - Every other character, `?`, `[`, `{` and `\` included, stands for itself. There is no escape:
 *   a pattern cannot ask for a literal `*` (a value's `*` is matched by `*` and `**` like any
 *   other non-separator character).
 * - The whole value must match: `crm.*` matches `crm.read` and `crm.` but neither `crm` nor
 *   `crm.contacts.read`; `crm.**` matches both of the latter but not `crm`.
 *
 * Matching is linear in the value for the common shapes (literal, `prefix*`, `prefix**`,
 * `*suffix`, `prefix*suffix`…) and at worst O(|value| × |pattern|) (a Thompson NFA, no
 * backtracking, so no ReDoS whatever the pattern). Patterns are bounded by
 * SCOPE_GLOB_MAX_LENGTH and SCOPE_GLOB_MAX_WILDCARDS, which also bounds the cover check.
 */

import { BoundedMap } from '@igw/kernel';

export const SCOPE_GLOB_SEPARATORS = ['.', '/', ':'] as const;
/** The longest pattern accepted (the card DTO allows 256 for operations, 512 for resources). */
export const SCOPE_GLOB_MAX_LENGTH = 512;
/** At most this many wildcards (`*` or `**` runs) per pattern: keeps the cover check small. */
export const SCOPE_GLOB_MAX_WILDCARDS = 32;
/** Compiled patterns kept in memory; the oldest is dropped beyond this. */
export const SCOPE_GLOB_CACHE_SIZE = 10_000;
/** A cover check takes at most this many steps (one outer position moved by one character), then answers "not covered". */
export const SCOPE_GLOB_COVER_BUDGET = 25_000;

// Tokens: a char code (>= 0) stands for itself; wildcards and the end of a pattern are negative.
const STAR = -1;
const GLOBSTAR = -2;
const END = -3;

const isSeparator = (c: number): boolean => c === 46 /* . */ || c === 47 /* / */ || c === 58; /* : */
const allows = (token: number, c: number): boolean => (token >= 0 ? token === c : token === GLOBSTAR || (token === STAR && !isSeparator(c)));

/** Why a pattern is not a scope glob, or null when it is one. */
export function scopeGlobProblem(pattern: unknown): string | null {
  if (typeof pattern !== 'string' || pattern === '') return 'must be a non-empty pattern';
  if (pattern.length > SCOPE_GLOB_MAX_LENGTH) return `must be at most ${SCOPE_GLOB_MAX_LENGTH} characters`;
  const wildcards = pattern.match(/\*+/g)?.length ?? 0;
  if (wildcards > SCOPE_GLOB_MAX_WILDCARDS) return `must use at most ${SCOPE_GLOB_MAX_WILDCARDS} wildcards`;
  return null;
}

function tokenize(pattern: string): Int32Array {
  const tokens: number[] = [];
  for (let i = 0; i < pattern.length;) {
    if (pattern.charCodeAt(i) !== 42 /* * */) {
      tokens.push(pattern.charCodeAt(i++));
      continue;
    }
    let j = i;
    while (j < pattern.length && pattern.charCodeAt(j) === 42) j++;
    tokens.push(j - i === 1 ? STAR : GLOBSTAR);
    i = j;
  }
  return Int32Array.from(tokens);
}

/** A compiled pattern. `test` is synchronous and reuses scratch buffers, so it is not re-entrant (it never calls out). */
export interface ScopeGlob {
  readonly pattern: string;
  /** Whether a concrete value is matched. */
  test(value: string): boolean;
  /** Whether the pattern has no wildcard (it then matches exactly itself). */
  readonly literal: boolean;
}

type Shape = 'literal' | 'anything' | 'segment' | 'general';

class CompiledScopeGlob implements ScopeGlob {
  readonly tokens: Int32Array;
  readonly literal: boolean;
  private readonly shape: Shape;
  /** The literal text before the first and after the last wildcard (the whole pattern if literal). */
  readonly prefix: string;
  readonly suffix: string;
  private readonly minLength: number;
  /** The tokens between the literal prefix and suffix: starts and ends with a wildcard. */
  private readonly middle: Int32Array;
  private current: Int32Array;
  private next: Int32Array;
  private readonly queued: Uint8Array;

  constructor(readonly pattern: string) {
    const problem = scopeGlobProblem(pattern);
    if (problem) throw new RangeError(`scope glob ${JSON.stringify(pattern)} ${problem}`);
    this.tokens = tokenize(pattern);
    const first = this.tokens.findIndex((t) => t < 0);
    this.literal = first === -1;
    const last = this.tokens.findLastIndex((t) => t < 0);
    this.prefix = this.literal ? pattern : pattern.slice(0, pattern.indexOf('*'));
    this.suffix = this.literal ? '' : pattern.slice(pattern.lastIndexOf('*') + 1);
    this.minLength = this.tokens.reduce((n, t) => (t >= 0 ? n + 1 : n), 0);
    this.middle = this.literal ? new Int32Array(0) : this.tokens.slice(first, last + 1);
    if (this.literal) this.shape = 'literal';
    else if (this.middle.length === 1) this.shape = this.middle[0] === GLOBSTAR ? 'anything' : 'segment';
    else this.shape = 'general';
    const states = this.shape === 'general' ? this.middle.length + 1 : 0;
    this.current = new Int32Array(states);
    this.next = new Int32Array(states);
    this.queued = new Uint8Array(states);
  }

  test(value: string): boolean {
    if (this.shape === 'literal') return value === this.pattern;
    // The literal ends are checked first: most values are rejected there, in O(prefix).
    if (value.length < this.minLength || !value.startsWith(this.prefix) || !value.endsWith(this.suffix)) return false;
    const from = this.prefix.length;
    const to = value.length - this.suffix.length;
    if (this.shape === 'anything') return true;
    if (this.shape === 'segment') {
      for (let k = from; k < to; k++) if (isSeparator(value.charCodeAt(k))) return false;
      return true;
    }
    return this.simulate(value, from, to);
  }

  /** Thompson simulation of the middle tokens over value[from, to): no backtracking. */
  private simulate(value: string, from: number, to: number): boolean {
    const t = this.middle;
    const m = t.length;
    const queued = this.queued;
    let current = this.current;
    let next = this.next;
    // A wildcard at s may match nothing: entering s also enters s + 1 (runs of stars are one token).
    const enter = (list: Int32Array, n: number, s: number): number => {
      if (!queued[s]) {
        queued[s] = 1;
        list[n++] = s;
        if (s < m && (t[s] ?? 0) < 0 && !queued[s + 1]) {
          queued[s + 1] = 1;
          list[n++] = s + 1;
        }
      }
      return n;
    };
    let count = enter(current, 0, 0);
    for (let i = 0; i < count; i++) queued[current[i] ?? 0] = 0;
    for (let k = from; k < to; k++) {
      const c = value.charCodeAt(k);
      let n = 0;
      for (let i = 0; i < count; i++) {
        const s = current[i] ?? 0;
        if (s === m) continue;
        const token = t[s] ?? 0;
        if (token >= 0) {
          if (token === c) n = enter(next, n, s + 1);
        } else if (allows(token, c)) {
          n = enter(next, n, s);
        }
      }
      for (let i = 0; i < n; i++) queued[next[i] ?? 0] = 0;
      if (n === 0) return false;
      [current, next] = [next, current];
      count = n;
    }
    for (let i = 0; i < count; i++) if (current[i] === m) return true;
    return false;
  }
}

/** A cheap necessary condition for two patterns to share a value: compatible literal ends. */
function mayIntersect(a: CompiledScopeGlob, b: CompiledScopeGlob): boolean {
  const ends = (x: string, y: string) => x.endsWith(y) || y.endsWith(x);
  return (a.prefix.startsWith(b.prefix) || b.prefix.startsWith(a.prefix)) && ends(a.literal ? a.prefix : a.suffix, b.literal ? b.prefix : b.suffix);
}

const cache = new BoundedMap<string, CompiledScopeGlob>(SCOPE_GLOB_CACHE_SIZE);

function compiled(pattern: string): CompiledScopeGlob {
  let glob = cache.get(pattern);
  if (glob === undefined) {
    glob = new CompiledScopeGlob(pattern);
    cache.set(pattern, glob);
  }
  return glob;
}

/**
 * The compiled form of a pattern (cached). Throws RangeError for a pattern that is not a scope
 * glob: check untrusted input with `scopeGlobProblem` first; on a hot path an invalid stored
 * pattern then fails the request (closed) instead of silently matching or not.
 */
export function compileScopeGlob(pattern: string): ScopeGlob {
  return compiled(pattern);
}

/** Whether the concrete `value` is matched by `pattern`. */
export function matchesGlob(value: string, pattern: string): boolean {
  return compiled(pattern).test(value);
}

/** Whether the concrete `value` is matched by at least one of `patterns`. */
export function matchesAnyGlob(value: string, patterns: readonly string[]): boolean {
  for (const p of patterns) if (compiled(p).test(value)) return true;
  return false;
}

/** `{covered: true}`, or a value matched by the inner pattern and by none of the outer ones. */
export type GlobCover = { covered: true } | { covered: false; example: string | null };

/** Characters tried for "any other non-separator character" in the search below. */
const FRESH_CANDIDATES = 'xyzqjkw0123456789abcdefghilmnoprstuv';

function freshChar(used: Set<number>): number {
  for (let i = 0; i < FRESH_CANDIDATES.length; i++) if (!used.has(FRESH_CANDIDATES.charCodeAt(i))) return FRESH_CANDIDATES.charCodeAt(i);
  for (let c = 0x100; ; c++) if (!used.has(c)) return c;
}

/** The literal characters of the tokens from `s` to the end: a value that takes the cheapest way to the end. */
function completion(tokens: Int32Array, s: number): string {
  let out = '';
  for (let i = s; i < tokens.length; i++) if ((tokens[i] ?? 0) >= 0) out += String.fromCharCode(tokens[i] ?? 0);
  return out;
}

/**
 * A sufficient condition for cover, in O(|outer| × |inner|): the outer pattern matches the inner
 * one read as a word whose wildcards are opaque symbols. An outer literal matches only the same
 * literal, an outer `*` any run of non-separator literals and inner `*`s, an outer `**` anything.
 * Every value of the inner pattern is then matched too (each outer wildcard absorbs what the
 * inner wildcards under it produce), so a `true` is always right; a `false` is left to the exact
 * search.
 */
function coversSymbolically(outer: Int32Array, inner: Int32Array): boolean {
  const m = outer.length;
  let current = new Set<number>();
  const enter = (set: Set<number>, s: number) => {
    set.add(s);
    if (s < m && (outer[s] ?? 0) < 0) set.add(s + 1);
  };
  enter(current, 0);
  for (const symbol of inner) {
    const next = new Set<number>();
    for (const s of current) {
      if (s === m) continue;
      const token = outer[s] ?? 0;
      if (token >= 0) {
        if (token === symbol) enter(next, s + 1);
      } else if (token === GLOBSTAR || (symbol >= 0 ? !isSeparator(symbol) : symbol === STAR)) {
        enter(next, s);
      }
    }
    if (next.size === 0) return false;
    current = next;
  }
  return current.has(m);
}

/**
 * Exact language inclusion: is every value matched by `inner` also matched by at least one of
 * `outers`? Both sides may contain wildcards. The outer patterns are determinized lazily (one
 * state = the set of outer positions still alive) and walked together with the inner pattern,
 * looking for a value the inner pattern accepts and no outer one does. Only the characters that
 * can make a difference are tried: the outer literals alive at that point, the separators, and
 * one character that no alive outer literal names (every such character behaves the same). A
 * search that needs more than SCOPE_GLOB_COVER_BUDGET steps answers "not covered" without an
 * example: the safe answer for a scope check, reached only by contrived patterns.
 */
export function checkGlobCover(outers: readonly string[], inner: string): GlobCover {
  const innerGlob = compiled(inner);
  const outerGlobs = outers.map(compiled);
  if (innerGlob.literal) return matchesAnyGlob(inner, outers) ? { covered: true } : { covered: false, example: inner };
  if (outerGlobs.some((g) => g.pattern === inner || /^\*\*+$/.test(g.pattern))) return { covered: true };
  // An outer pattern that shares no value with the inner one cannot help cover it; dropping it
  // first keeps the determinized sets small.
  const relevant = outerGlobs.filter((g) => mayIntersect(g, innerGlob) && intersectionExample(g.pattern, inner) !== null);
  if (relevant.length === 0) return { covered: false, example: completion(innerGlob.tokens, 0) };
  if (relevant.some((g) => coversSymbolically(g.tokens, innerGlob.tokens))) return { covered: true };

  // All outer patterns as one token array: each pattern's tokens followed by END.
  const starts: number[] = [];
  const flat: number[] = [];
  for (const g of relevant) {
    starts.push(flat.length);
    flat.push(...g.tokens, END);
  }
  const outerTokens = Int32Array.from(flat);
  const it = innerGlob.tokens;
  const innerEnd = it.length;

  const closeOuter = (set: Set<number>, g: number) => {
    set.add(g);
    if ((outerTokens[g] ?? 0) < 0 && outerTokens[g] !== END) set.add(g + 1);
  };
  const closeInner = (s: number): number[] => (s < innerEnd && (it[s] ?? 0) < 0 ? [s, s + 1] : [s]);
  const initial = new Set<number>();
  for (const g of starts) closeOuter(initial, g);

  interface Node {
    inner: number;
    outer: number[];
    parent: Node | null;
    char: number;
  }
  const word = (node: Node): string => {
    let out = '';
    for (let n: Node | null = node; n && n.parent; n = n.parent) out = String.fromCharCode(n.char) + out;
    return out;
  };
  const seen = new Set<string>();
  const queue: Node[] = [];
  // Returns a counterexample once one is reached, else queues the node.
  const visit = (node: Node): string | null => {
    const outerAccepts = node.outer.some((g) => outerTokens[g] === END);
    if (node.inner === innerEnd && !outerAccepts) return word(node);
    // No outer pattern alive: whatever the inner pattern still accepts is outside.
    if (node.outer.length === 0) return word(node) + completion(it, node.inner);
    const key = `${node.inner}|${node.outer.join(',')}`;
    if (!seen.has(key)) {
      seen.add(key);
      queue.push(node);
    }
    return null;
  };
  const initialOuter = [...initial].sort((a, b) => a - b);
  for (const s of closeInner(0)) {
    const found = visit({ inner: s, outer: initialOuter, parent: null, char: 0 });
    if (found !== null) return { covered: false, example: found };
  }
  let work = 0;
  for (const node of queue) {
    if (node.inner === innerEnd) continue;
    const token = it[node.inner] ?? 0;
    let chars: number[];
    if (token >= 0) {
      chars = [token];
    } else {
      const alive = new Set<number>();
      for (const g of node.outer) if ((outerTokens[g] ?? 0) >= 0) alive.add(outerTokens[g] ?? 0);
      chars = [...alive].filter((c) => !isSeparator(c));
      chars.push(freshChar(alive));
      if (token === GLOBSTAR) chars.push(46, 47, 58);
    }
    for (const c of chars) {
      work += node.outer.length + 1;
      if (work > SCOPE_GLOB_COVER_BUDGET) return { covered: false, example: null };
      const stepped = new Set<number>();
      for (const g of node.outer) {
        const t = outerTokens[g] ?? 0;
        if (t === END || !allows(t, c)) continue;
        closeOuter(stepped, t >= 0 ? g + 1 : g);
      }
      const outer = [...stepped].sort((a, b) => a - b);
      const innerNext = token >= 0 ? node.inner + 1 : node.inner;
      for (const s of closeInner(innerNext)) {
        const found = visit({ inner: s, outer, parent: node, char: c });
        if (found !== null) return { covered: false, example: found };
      }
    }
  }
  return { covered: true };
}

/** Whether every value matched by `inner` is matched by `outer` (exact; both may be globs). */
export function globCovers(outer: string, inner: string): boolean {
  return checkGlobCover([outer], inner).covered;
}

/** Whether every value matched by `inner` is matched by at least one of `outers` (their union). */
export function globsCover(outers: readonly string[], inner: string): boolean {
  return checkGlobCover(outers, inner).covered;
}

/** Scratch table for intersectionExample, grown on demand (matching is synchronous). */
let reachable = new Uint8Array(1024);

/**
 * A value matched by both patterns, or null when none exists (exact). Walks pairs of positions
 * (i in a, j in b). Every useful move goes forward (a wildcard against a wildcard only loops), so
 * one pass in row order decides reachability: O(|a| × |b|), no queue.
 */
export function intersectionExample(a: string, b: string): string | null {
  const ta = compiled(a).tokens;
  const tb = compiled(b).tokens;
  const rows = ta.length + 1;
  const width = tb.length + 1;
  if (reachable.length < rows * width) reachable = new Uint8Array(rows * width);
  const reach = reachable;
  reach.fill(0, 0, rows * width);
  reach[0] = 1;
  for (let i = 0; i < rows; i++) {
    const x = i < ta.length ? (ta[i] ?? 0) : END;
    for (let j = 0; j < width; j++) {
      const id = i * width + j;
      if (!reach[id]) continue;
      const y = j < tb.length ? (tb[j] ?? 0) : END;
      // Down: a's wildcard matches nothing more, or a's literal is taken by b's wildcard.
      if (x !== END && (x < 0 || (y !== END && y < 0 && allows(y, x)))) reach[id + width] = 1;
      // Right: the same with the roles swapped.
      if (y !== END && (y < 0 || (x !== END && x < 0 && allows(x, y)))) reach[id + 1] = 1;
      if (x >= 0 && x === y) reach[id + width + 1] = 1;
    }
  }
  if (!reach[rows * width - 1]) return null;
  // Walk back from the end; the character of each move follows from the tokens it leaves.
  let out = '';
  for (let i = ta.length, j = tb.length; i > 0 || j > 0;) {
    const x = i > 0 ? (ta[i - 1] ?? 0) : END;
    const y = j > 0 ? (tb[j - 1] ?? 0) : END;
    const at = (ii: number, jj: number) => reach[ii * width + jj] === 1;
    if (i > 0 && j > 0 && x >= 0 && x === y && at(i - 1, j - 1)) {
      out = String.fromCharCode(x) + out;
      i--;
      j--;
    } else if (i > 0 && at(i - 1, j) && (x < 0 || (j < tb.length && (tb[j] ?? 0) < 0 && allows(tb[j] ?? 0, x)))) {
      if (x >= 0) out = String.fromCharCode(x) + out;
      i--;
    } else {
      if (y >= 0) out = String.fromCharCode(y) + out;
      j--;
    }
  }
  return out;
}

/** Whether some value is matched by both patterns (exact). */
export function globsIntersect(a: string, b: string): boolean {
  return intersectionExample(a, b) !== null;
}
