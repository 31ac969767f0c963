import { ACTION_VERBS, tokenize } from '@igw/lexical-index';
import { matchesGlob } from '@igw/scope-glob';

/** What binding needs of an intention: its id, label and `tools` patterns (DESIGN 6.15). */
export interface BindableIntention {
  readonly id: string;
  readonly label: string;
  readonly tools: readonly string[];
}

/**
 * How specific a pattern is, compared field by field: more literal characters first, then fewer
 * `**`, then fewer `*`. `crm.contacts.get` beats `crm.contacts.*`, which beats `crm.**`.
 */
export type Specificity = readonly [literal: number, globstars: number, stars: number];

export function specificityOf(pattern: string): Specificity {
  const globstars = pattern.match(/\*\*+/g)?.length ?? 0;
  const stars = (pattern.match(/\*+/g)?.length ?? 0) - globstars;
  return [pattern.replace(/\*/g, '').length, -globstars || 0, -stars || 0];
}

const compare = (a: Specificity, b: Specificity): number => a[0] - b[0] || a[1] - b[1] || a[2] - b[2];

export interface BindingMatch<T extends BindableIntention> {
  intention: T;
  /** The pattern that matched: the intention's most specific one for this tool, or `label` for a name binding. */
  pattern: string;
  kind: 'tools' | 'label';
}

/**
 * The binding outcome for one tool name: `bound` (one intention's pattern is the most specific
 * match: certain), `tie` (several equally specific: a human chooses), or `none`.
 */
export type BindingResult<T extends BindableIntention> =
  { kind: 'bound'; match: BindingMatch<T> } | { kind: 'tie'; matches: BindingMatch<T>[] } | { kind: 'none' };

/**
 * Explicit bindings: the intentions whose `tools` match the tool name, ranked by the most specific
 * matching pattern. An intention with `tools` covers exactly those tools.
 */
export function matchToolBindings<T extends BindableIntention>(toolName: string, intentions: Iterable<T>): BindingResult<T> {
  let best: { match: BindingMatch<T>; spec: Specificity }[] = [];
  for (const intention of intentions) {
    let own: { pattern: string; spec: Specificity } | null = null;
    for (const pattern of intention.tools) {
      if (!matchesGlob(toolName, pattern)) continue;
      const spec = specificityOf(pattern);
      if (own === null || compare(spec, own.spec) > 0) own = { pattern, spec };
    }
    if (own === null) continue;
    const [leader] = best;
    const order = leader === undefined ? 1 : compare(own.spec, leader.spec);
    const entry = { match: { intention, pattern: own.pattern, kind: 'tools' as const }, spec: own.spec };
    if (order > 0) best = [entry];
    else if (order === 0) best.push(entry);
  }
  const [only, other] = best;
  if (only === undefined) return { kind: 'none' };
  if (other === undefined) return { kind: 'bound', match: only.match };
  return { kind: 'tie', matches: best.map((b) => b.match).sort((a, b) => (a.intention.label < b.intention.label ? -1 : 1)) };
}

const SEPARATORS = /[._\-/:]+/g;
/** A label or tool name with its separators made one (`crm_lookup` and `crm.lookup` are one name). */
export const normalizedName = (name: string) => name.toLowerCase().replace(SEPARATORS, '.');
const normalized = normalizedName;

/** The normalized names a label would need to bind this tool by name: its prefixes of two or more words, longest first. */
export function labelPrefixes(toolName: string): string[] {
  const words = normalized(toolName)
    .split('.')
    .filter((w) => w !== '');
  const out: string[] = [];
  for (let n = words.length; n >= 2; n--) out.push(words.slice(0, n).join('.'));
  return out;
}

/**
 * A name binding: an intention without `tools` whose label is where the tool's name starts, at a
 * word boundary, with no further action verb after it — `crm.lookup` for `crm.lookup_contact` or
 * `crm_lookup` — is the tool's own name for what it does, not a guess. `crm.lookup` does not bind
 * `crm.lookup_and_delete` (a second verb) nor `crm.lookups` (no boundary). Labels of one word bind
 * nothing: `refund` says too little to name a tool.
 */
export function labelBinds(label: string, toolName: string): boolean {
  const l = normalized(label);
  if (!l.includes('.')) return false;
  const t = normalized(toolName);
  if (t !== l && !t.startsWith(`${l}.`)) return false;
  const rest = toolName.slice(toolName.length - (t.length - l.length));
  return !tokenize(rest).some((w) => ACTION_VERBS.has(w));
}

/**
 * Name bindings among intentions that have no `tools` (those are bound by their patterns only).
 * `named(prefix)` gives the intentions whose normalized label is `prefix` (see labelPrefixes).
 */
export function matchLabelBindings<T extends BindableIntention>(toolName: string, named: (prefix: string) => Iterable<T>): BindingResult<T> {
  const intentions: T[] = [];
  for (const prefix of labelPrefixes(toolName)) intentions.push(...named(prefix));
  const matches: BindingMatch<T>[] = [];
  for (const intention of intentions) {
    if (intention.tools.length === 0 && labelBinds(intention.label, toolName)) matches.push({ intention, pattern: intention.label, kind: 'label' });
  }
  // The longest label is the most specific name (`crm.lookup.contact` over `crm.lookup`).
  const length = (m: BindingMatch<T>) => normalized(m.intention.label).length;
  matches.sort((a, b) => length(b) - length(a));
  const [first, second] = matches;
  if (first === undefined) return { kind: 'none' };
  if (second !== undefined && length(second) === length(first)) return { kind: 'tie', matches: matches.filter((m) => length(m) === length(first)) };
  return { kind: 'bound', match: first };
}

/** Whether an intention may be matched to a tool by anything but its own binding: never when it has `tools` the tool is outside of. */
export const boundElsewhere = (intention: BindableIntention, toolName: string): boolean =>
  intention.tools.length > 0 && !intention.tools.some((p) => matchesGlob(toolName, p));
