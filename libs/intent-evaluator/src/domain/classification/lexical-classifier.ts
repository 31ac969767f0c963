import type { IntentClass } from '@igw/kernel';
import {
  ACTION_CONCEPTS,
  ACTION_VERBS,
  tokenize,
  type IntentionDocument as LexicalDocument,
  type LexicalIndex,
  type QueryTerm,
  type SearchHit as LexicalHit,
} from '@igw/lexical-index';

/** The shared lexical index's documents and hits, labelled with the intent classes. */
export type IntentionDocument = LexicalDocument<IntentClass>;
export type SearchHit = LexicalHit<IntentClass>;

/** What the lexical layer reads from an evaluate request. */
export interface ClassificationInput {
  toolName: string;
  arguments?: Readonly<Record<string, unknown>>;
  conversationContext?: readonly { role: string; content: string }[];
}

export const AMBIENT_LABEL = 'ambient';
export const AMBIENT_CLASS = 'other' satisfies IntentClass;

export type ClassificationDecision =
  | { kind: 'intention'; intentionId: string; label: string; intentClass: IntentClass }
  | { kind: 'ambient'; label: typeof AMBIENT_LABEL; intentClass: typeof AMBIENT_CLASS };

export interface SupportingEvidence {
  intent_label: string;
  intention_id: string;
  intent_class: IntentClass;
  /** BM25F score, after the action-verb discount (see rerankByAction). */
  score: number;
  /** Score as a share of the most this query could score (0..1), comparable across calls. */
  relative_score: number;
  matched_terms: string[];
}

/** The `classification_evidence` object of the evaluate response (spec: schema_version 1). */
export interface ClassificationEvidence {
  classification_method: 'lexical';
  evaluation_layers_consulted: ['lexical'];
  confidence: number;
  supporting_evidence: SupportingEvidence[];
  schema_version: 1;
}

export interface LexicalClassification {
  decision: ClassificationDecision;
  /** Probability-like confidence in `decision`, 0..1. */
  confidence: number;
  /** False when a later layer (embedding, llm) should be asked. */
  confident: boolean;
  evidence: ClassificationEvidence;
  /** The numbers behind the decision (for tests, evaluation and threshold sweeps). */
  signals: LexicalFeatures & { evidence: number };
}

/** Where a query term came from; its weight says how much that source is trusted. */
export const SOURCE_WEIGHTS = {
  toolName: 1,
  argumentKey: 0.5,
  argumentValue: 0.35,
  conversation: 0.3,
} as const;
export type Source = keyof typeof SOURCE_WEIGHTS;

export interface LexicalClassifierOptions {
  /** Below this evidence strength (see CALIBRATION) of the best candidate, the call is ambient. */
  ambientFloor: number;
  /** At or above this confidence the lexical decision stands without later layers. */
  confidentAt: number;
  /** Candidates reported in the evidence. */
  evidenceCandidates: number;
  /** Messages of conversation context read, most recent last. */
  contextMessages: number;
  /** Score factor (for ranking) of a candidate that does not permit the tool name's action verb. */
  actionMismatchFactor: number;
}

export const DEFAULT_LEXICAL_OPTIONS: LexicalClassifierOptions = {
  ambientFloor: 0.1,
  confidentAt: 0.7,
  evidenceCandidates: 3,
  contextMessages: 3,
  actionMismatchFactor: 0.5,
};

/**
 * Action verbs an intention permits by its class, on top of those its own text names (a write
 * intention whose description says "cancel" or "remove" permits delete too; one that says
 * "rotate" permits rotate). Reading is implied by lookup, reporting and analysis; an export is a
 * bulk extraction, not a single-record read; write covers creating content (write, send) but
 * not deleting; admin intentions are administrative changes (create, change, remove), not
 * reads of what they administer. Specific verbs (merge, reset, reject, scale, …) are never
 * implied: the intention must name them. `any`: `other` intentions are defined by their
 * object, not their verb.
 */
export const CLASS_ACTIONS: Readonly<Record<IntentClass, readonly string[] | 'any'>> = {
  lookup: ['read'],
  reporting: ['read'],
  analysis: ['read'],
  export: ['export'],
  write: ['write', 'send'],
  admin: ['write', 'delete'],
  other: 'any',
};

/** Candidates re-ranked after the action check (more than shown, so a demoted top can be overtaken). */
const RERANK_DEPTH = 10;

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
export function buildQuery(input: ClassificationInput, contextMessages = DEFAULT_LEXICAL_OPTIONS.contextMessages): QueryTerm[] {
  const best = new Map<string, { weight: number; source: Source }>();
  const add = (terms: readonly string[], source: Source) => {
    const weight = SOURCE_WEIGHTS[source];
    for (const t of terms) if ((best.get(t)?.weight ?? 0) < weight) best.set(t, { weight, source });
  };
  const nameTerms = tokenize(input.toolName);
  add(nameTerms, 'toolName');
  // A generic tool (execute_sql, salesforce_dml_records) takes its action from its arguments.
  if (!nameTerms.some((t) => ACTION_VERBS.has(t)) && input.arguments) {
    const verb = argumentVerb(input.arguments);
    if (verb !== null) add([verb], 'toolName');
  }

  const keys: string[] = [];
  const values: string[] = [];
  const walk = (value: unknown, depth: number) => {
    if (depth > MAX_DEPTH) return;
    if (typeof value === 'string') {
      if (values.length < MAX_VALUE_TERMS && isNaturalText(value)) values.push(...tokenize(value, { dropDigits: true, prose: true, concepts: false }));
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

/**
 * The action a generic tool's arguments name: the statement of an SQL argument (SELECT → read,
 * UPDATE → write, DELETE → delete, ALTER TABLE → write, COPY … TO → export) or an `operation`-like
 * argument that is an action word (`{operation: "update"}` → write). Null when none does.
 */
export function argumentVerb(args: Readonly<Record<string, unknown>>): string | null {
  for (const [key, value] of Object.entries(args).slice(0, 50)) {
    if (typeof value !== 'string') continue;
    for (const [statement, verb] of SQL_STATEMENTS) if (statement.test(value)) return verb;
    if (OPERATION_KEYS.has(key.toLowerCase()) && /^[A-Za-z_-]{2,20}$/.test(value)) {
      const [term] = tokenize(value);
      if (term !== undefined && ACTION_VERBS.has(term)) return term;
    }
  }
  return null;
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

export interface LexicalFeatures {
  /** Best candidate's score over the query's maximum possible score (0..1). */
  relative: number;
  /** (top1 - top2) / top1; 1 when there is a single candidate, 0 when there is none. */
  margin: number;
  /** 1 when the best candidate permits the tool name's action verb (or there is none), else 0. */
  actionMatch: number;
  /**
   * 1 when the best candidate shares a word with the call besides the generic action verbs
   * (read, write, delete, export, send), else 0: a match on `get` alone says nothing about what
   * is being read.
   */
  objectMatch: number;
}

/**
 * Confidence calibration.
 *
 * Three signals say whether the top candidate is the right one: how much of the query it
 * explains (`relative`: its BM25F score over the best score any intention could reach for this
 * query, so query length and corpus size do not inflate it), how clearly it beats the runner-up
 * (`margin`), and whether it permits the action the tool name names (`actionMatch`). On the
 * labelled set, uncovered (ambient) calls that still score do so either through generic words
 * shared by many intentions (get → read, message, time), which produce near ties between
 * unrelated intentions, or through the right object with the wrong action (`vault.read_secret`
 * against "rotate credentials", `merge_pull_request` against "open pull request"); covered calls
 * win clearly with a permitted verb. Hence one evidence value
 *
 *   evidence = relative × (marginFloor + (1 − marginFloor) × min(1, margin / clearMargin))
 *                        × (actionMatch ? 1 : mismatch)
 *
 * (0 when the best candidate shares nothing with the call but a generic verb such as `get`),
 * compared with the ambient floor. Confidence follows the two questions a decision answers:
 * is the call covered at all, P(covered) = logistic(slope × (evidence − midpoint)), and if so,
 * is it this candidate rather than the runner-up, P(top | covered) = ½ + ½ × min(1, margin /
 * clearMargin) (as in the embedding layer's calibration). A match is reported with
 * P(covered) × P(top | covered), so an exact tie between two intentions is never above ½ and
 * leaves the decision to the embedding / llm layers; an ambient decision with 1 − P(covered).
 * The shape constants were set by hand and `midpoint`/`slope` fitted (maximum likelihood) on
 * the dev split of the labelled set (libs/intent-evaluator/eval; `npm run eval:intents -- --fit`
 * refits them), so that reported confidence tracks observed accuracy; the eval prints the
 * reliability table that checks it. A match between the floor and the midpoint is reported
 * with confidence below ½ — honest, and exactly the band where the later layers should decide.
 */
export const CALIBRATION = {
  clearMargin: 0.3,
  marginFloor: 0.4,
  /** Evidence factor when even the best candidate does not permit the tool name's action verb. */
  mismatch: 0.25,
  midpoint: 0.2,
  slope: 14,
} as const;

/** P(the best candidate, rather than the runner-up, is the intention), from the margin. */
export function topShare(margin: number): number {
  return 0.5 + 0.5 * Math.min(1, Math.max(0, margin) / CALIBRATION.clearMargin);
}

export function evidenceStrength(f: LexicalFeatures): number {
  if (f.objectMatch === 0) return 0;
  const c = CALIBRATION;
  const separation = c.marginFloor + (1 - c.marginFloor) * Math.min(1, Math.max(0, f.margin) / c.clearMargin);
  return f.relative * separation * (f.actionMatch > 0 ? 1 : c.mismatch);
}

/** P(the call is covered by an intention), from the evidence strength. */
export function matchProbability(evidence: number, calibration: { midpoint: number; slope: number } = CALIBRATION): number {
  return 1 / (1 + Math.exp(-calibration.slope * (evidence - calibration.midpoint)));
}

const round = (x: number) => Math.round(x * 10_000) / 10_000;

/** The lexical layer: ranks the org's active intentions for a tool call. */
export class LexicalClassifier {
  readonly options: LexicalClassifierOptions;

  constructor(
    private readonly index: LexicalIndex<IntentClass>,
    options: Partial<LexicalClassifierOptions> = {},
  ) {
    this.options = { ...DEFAULT_LEXICAL_OPTIONS, ...options };
  }

  /**
   * The tool name's action verb (get → read, create → write, delete, export, send, or a
   * specific one: merge, reset, rotate, …) is what an authorization decision hinges on:
   * `hubspot.delete_contact` is not covered by a contact lookup however well the nouns match.
   * The verb is the first one in the tool name (`kubectl_scale_deployment` → scale, not deploy).
   * A candidate that does not permit it (by class or by its own words) keeps only
   * `actionMismatchFactor` of its score: a discount, not a veto, since a verb can be mis-read
   * lexically. Returns the hits re-ranked and, per hit, whether it permits the verb.
   */
  private rerankByAction(query: readonly QueryTerm[], hits: SearchHit[]): { hits: SearchHit[]; permitted: boolean[] } {
    let verb: string | undefined;
    for (const q of query) {
      if (q.source === 'toolName' && ACTION_VERBS.has(q.term)) {
        verb = q.term;
        break;
      }
    }
    if (verb === undefined) return { hits, permitted: hits.map(() => true) };
    const ranked = hits.map((h) => {
      const implied = CLASS_ACTIONS[h.doc.intentClass];
      const ok = implied === 'any' || implied.includes(verb) || this.index.hasTerm(h.doc.id, verb);
      return { h: ok ? h : { ...h, score: h.score * this.options.actionMismatchFactor }, ok };
    });
    ranked.sort((a, b) => b.h.score - a.h.score || (a.h.doc.label < b.h.doc.label ? -1 : a.h.doc.label > b.h.doc.label ? 1 : 0));
    return { hits: ranked.map((r) => r.h), permitted: ranked.map((r) => r.ok) };
  }

  classify(input: ClassificationInput): LexicalClassification {
    const query = buildQuery(input, this.options.contextMessages);
    const { hits, permitted } = this.rerankByAction(query, this.index.search(query, Math.max(RERANK_DEPTH, this.options.evidenceCandidates)));
    // The most this query could score. Tool-name words always count: the name is the call's
    // identity, and a name word no intention uses is evidence of an ambient call. Words from
    // arguments and chat count only when some intention uses them: `limit`, `page_size` or
    // "thanks" say nothing about whether the call is covered.
    let max = 0;
    const saturated = this.index.params.k1 + 1;
    for (const q of query)
      if (q.weight > 0 && (q.source === 'toolName' || this.index.documentFrequency(q.term) > 0)) max += q.weight * this.index.idf(q.term) * saturated;
    const rel = (h: SearchHit | undefined) => (h && max > 0 ? h.score / max : 0);
    const [first, second] = hits;
    const features: LexicalFeatures = {
      relative: rel(first),
      margin: first && first.score > 0 ? (first.score - (second?.score ?? 0)) / first.score : 0,
      actionMatch: permitted[0] === false ? 0 : 1,
      objectMatch: first !== undefined && first.matchedTerms.some((t) => !ACTION_CONCEPTS.has(t)) ? 1 : 0,
    };
    const evidence = evidenceStrength(features);
    const pMatch = matchProbability(evidence);
    const isMatch = first !== undefined && evidence >= this.options.ambientFloor;
    const decision: ClassificationDecision = isMatch
      ? { kind: 'intention', intentionId: first.doc.id, label: first.doc.label, intentClass: first.doc.intentClass }
      : { kind: 'ambient', label: AMBIENT_LABEL, intentClass: AMBIENT_CLASS };
    const confidence = round(isMatch ? pMatch * topShare(features.margin) : 1 - pMatch);
    return {
      decision,
      confidence,
      confident: confidence >= this.options.confidentAt,
      evidence: {
        classification_method: 'lexical',
        evaluation_layers_consulted: ['lexical'],
        confidence,
        supporting_evidence: hits.slice(0, this.options.evidenceCandidates).map((h) => ({
          intent_label: h.doc.label,
          intention_id: h.doc.id,
          intent_class: h.doc.intentClass,
          score: round(h.score),
          relative_score: round(rel(h)),
          matched_terms: h.matchedTerms,
        })),
        schema_version: 1,
      },
      signals: { ...features, evidence },
    };
  }
}
