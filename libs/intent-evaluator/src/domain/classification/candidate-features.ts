import type { IntentClass } from '@igw/kernel';
import { ACTION_CONCEPTS, ACTION_VERBS, exclusionTerms, tokenize, type LexicalIndex, type QueryTerm, type SearchHit as LexicalHit } from '@igw/lexical-index';

type Hit = LexicalHit<IntentClass>;

/**
 * What the ranker reads of each candidate intention (one number each, in this order). Shares
 * are of the most the call's words from that source could score, so they compare across calls.
 */
export const CANDIDATE_FEATURES = [
  /** Score over the most the whole query could score (BM25F, all sources). */
  'relative',
  /** Share of the tool name's words the candidate explains (idf-weighted). */
  'name',
  /** Share of the argument keys' known words it explains. */
  'argumentKeys',
  /** Share of the argument values' known words it explains (text, enum values). */
  'argumentValues',
  /** Share of the words of URL and path arguments it explains. */
  'argumentPaths',
  /** Share of the conversation's known words it explains. */
  'conversation',
  /** 1 when the tool name (or an SQL/operation argument) names an action the candidate does not permit. */
  'actionMismatch',
  /** 1 when the candidate's own description excludes what the call does ("Merging is not covered"). */
  'excluded',
  /** 1 when the tool name names objects (`payout` in `create_payout`) and the candidate holds one. */
  'objectHit',
  /** 1 when the tool name names objects and the candidate holds none of them. */
  'objectMiss',
  /** 1 when the call's server (`supabase` in `supabase.merge_branch`) is known to the catalogue but not to the candidate. */
  'serverMiss',
  /** 1 when the candidate matches only generic action words (read, write, …). */
  'verbOnly',
  /** (best score − this score) / best score. */
  'gap',
  /** 1 when the conversation names an action other than reading (export, delete, …) that the candidate permits. */
  'contextAction',
] as const;

/** What the ranker reads of the call itself, for the "no intention covers it" alternative. */
export const AMBIENT_FEATURES = [
  'bias',
  /** 1 when a word the tool name uses for its object is in no intention (`entities`, `payout`). */
  'unknownObject',
  /** 1 when the tool name names no object (`fetch`, `execute_sql`): its meaning is in its arguments. */
  'noObject',
  /** 1 when the call's server name is in no intention (`memory.create_entities`). */
  'unknownServer',
] as const;

export interface CallFeatures {
  candidates: { hit: Hit; permitted: boolean; x: number[] }[];
  ambient: number[];
}

/** The server part of a namespaced tool name (`stripe` in `stripe.create_payout` or `mcp__stripe__create_payout`). */
export function serverOf(toolName: string): string {
  const mcp = /^mcp__(.+?)__/.exec(toolName);
  if (mcp) return mcp[1] ?? '';
  const dot = toolName.lastIndexOf('.');
  return dot > 0 ? toolName.slice(0, dot) : '';
}

const NAMESPACE_WORDS = new Set(['mcp', 'api']);

/**
 * Computes the ranker's features of a call and its BM25F candidates. `verb` is the action the
 * tool name (or its arguments) names, if any.
 */
export class CandidateFeaturizer {
  private readonly exclusions = new WeakMap<object, string[][]>();

  constructor(private readonly index: LexicalIndex<IntentClass>) {}

  /**
   * `generic`: the tool takes its action from its arguments (`execute_sql`, `run_soql_query`):
   * its name's words are the tool's, not the call's objects.
   */
  features(
    toolName: string,
    query: readonly QueryTerm[],
    hits: readonly Hit[],
    verb: string | undefined,
    generic: boolean,
    permits: (hit: Hit, verb: string) => boolean,
  ): CallFeatures {
    const index = this.index;
    const saturated = index.params.k1 + 1;
    const server = new Set(tokenize(serverOf(toolName)).filter((t) => !NAMESPACE_WORDS.has(t)));
    const objects = generic
      ? []
      : query.filter((q) => q.source === 'toolName' && !ACTION_VERBS.has(q.term) && !server.has(q.term) && !NAMESPACE_WORDS.has(q.term)).map((q) => q.term);
    const excludable = new Set(query.filter((q) => (q.source === 'toolName' || q.source === 'argumentValue') && !ACTION_VERBS.has(q.term)).map((q) => q.term));
    const knownServer = [...server].some((t) => index.documentFrequency(t) > 0);

    // The most each source could score: tool-name words always count (a name word no intention
    // uses is evidence of an ambient call); other words only when some intention uses them.
    let maxAll = 0;
    const max = new Map<string, number>();
    for (const q of query) {
      if (!(q.weight > 0)) continue;
      const known = index.documentFrequency(q.term) > 0;
      if (q.source !== 'toolName' && !known) continue;
      const m = q.weight * index.idf(q.term) * saturated;
      maxAll += m;
      const source = q.source ?? 'toolName';
      max.set(source, (max.get(source) ?? 0) + m);
    }
    const share = (got: Map<string, number>, source: string) => {
      const m = max.get(source) ?? 0;
      return m > 0 ? (got.get(source) ?? 0) / m : 0;
    };
    const contextVerbs = [...new Set(query.filter((q) => q.source === 'conversation' && ACTION_VERBS.has(q.term) && q.term !== 'read').map((q) => q.term))];
    const best = hits[0]?.score ?? 0;
    const candidates = hits.map((hit) => {
      const got = new Map<string, number>();
      for (const q of query) {
        if (!(q.weight > 0)) continue;
        const c = q.weight * index.termScore(hit.doc.id, q.term);
        if (c !== 0) got.set(q.source ?? 'toolName', (got.get(q.source ?? 'toolName') ?? 0) + c);
      }
      const contextPermitted = contextVerbs.some((v) => permits(hit, v));
      const permitted = verb === undefined || permits(hit, verb);
      const holdsObject = objects.some((t) => index.hasTerm(hit.doc.id, t));
      const x = [
        maxAll > 0 ? hit.score / maxAll : 0,
        share(got, 'toolName'),
        share(got, 'argumentKey'),
        share(got, 'argumentValue'),
        share(got, 'argumentPath'),
        share(got, 'conversation'),
        permitted ? 0 : 1,
        this.excludes(hit, verb, excludable) ? 1 : 0,
        objects.length > 0 && holdsObject ? 1 : 0,
        objects.length > 0 && !holdsObject ? 1 : 0,
        knownServer && ![...server].some((t) => index.hasTerm(hit.doc.id, t)) ? 1 : 0,
        hit.matchedTerms.every((t) => ACTION_CONCEPTS.has(t)) ? 1 : 0,
        best > 0 ? (best - hit.score) / best : 0,
        contextVerbs.length > 0 && contextPermitted ? 1 : 0,
      ];
      return { hit, permitted, x };
    });
    const ambient = [
      1,
      objects.length > 0 ? objects.filter((t) => index.documentFrequency(t) === 0).length / objects.length : 0,
      objects.length === 0 ? 1 : 0,
      server.size > 0 && !knownServer ? 1 : 0,
    ];
    return { candidates, ambient };
  }

  /**
   * Whether one of the intention's exclusions describes the call: it names the call's action and
   * one of its objects ("Reading a secret is infra.secret_read" against a secret read), its
   * action alone ("Merging is not covered"), or one of its objects that the intention does not
   * otherwise cover ("Secrets are not covered").
   */
  private excludes(hit: Hit, verb: string | undefined, objects: ReadonlySet<string>): boolean {
    let sentences = this.exclusions.get(hit.doc);
    if (sentences === undefined) this.exclusions.set(hit.doc, (sentences = exclusionTerms(hit.doc.description)));
    for (const terms of sentences) {
      const verbs = terms.filter((t) => ACTION_VERBS.has(t));
      const nouns = terms.filter((t) => !ACTION_VERBS.has(t));
      const objectHit = nouns.some((t) => objects.has(t));
      if (verb !== undefined && verbs.includes(verb) && (objectHit || nouns.length === 0)) return true;
      if (verbs.length === 0 && nouns.some((t) => objects.has(t) && !this.index.hasTerm(hit.doc.id, t))) return true;
    }
    return false;
  }
}
