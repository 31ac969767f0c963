import { affirmativeSentences } from './exclusions';
import { tokenize } from './tokenize';

/**
 * What the classifier needs of an intention (the evaluator's read model, fed by intention
 * events). Only active intentions belong in the index; `syncIntention` applies that rule.
 */
export interface IntentionDocument<L extends string = string> {
  id: string;
  label: string;
  displayName: string;
  description: string;
  intentClass: L;
  dataElements: readonly { dataSourceId: string; path: string }[];
  /** When given, anything but `active` is kept out of the index. */
  status?: 'draft' | 'active' | 'archived';
}

/** Indexed fields, in posting order. */
export const FIELDS = ['label', 'displayName', 'description', 'data', 'intentClass'] as const;
export type Field = (typeof FIELDS)[number];

/**
 * BM25F parameters. Labels and display names are short, operator-chosen names: a match there is
 * worth more than one in free-text description, and length normalisation matters little
 * (low b). Data-element paths name the objects the intention touches (contacts.email).
 */
export interface Bm25Params {
  k1: number;
  fields: Record<Field, { weight: number; b: number }>;
}

export const DEFAULT_BM25: Bm25Params = {
  k1: 1.2,
  fields: {
    label: { weight: 3, b: 0.3 },
    displayName: { weight: 2, b: 0.3 },
    description: { weight: 1, b: 0.75 },
    data: { weight: 1.5, b: 0.5 },
    intentClass: { weight: 1, b: 0 },
  },
};

/** The verb concept each known intent class implies; other labels add no terms. */
const CLASS_TERMS: Readonly<Record<string, string[]>> = {
  lookup: tokenize('read'),
  write: tokenize('write'),
  export: tokenize('export'),
  admin: tokenize('admin'),
  reporting: tokenize('report read'),
  analysis: tokenize('analyse read'),
};

/** Per-field term lists of one intention: the index's view of a document. */
export function documentFields(doc: IntentionDocument): Record<Field, string[]> {
  return {
    label: tokenize(doc.label),
    displayName: tokenize(doc.displayName, { prose: true }),
    description: tokenize(affirmativeSentences(doc.description), { prose: true }),
    // Paths, plus the data source name (`hubspot`, `stripe`), which tool names often carry. Field
    // names, so action verbs in them (`created_at`) are dropped: they must not permit an action.
    data: doc.dataElements.flatMap((d) => [...tokenize(d.path, { concepts: false }), ...tokenize(d.dataSourceId, { concepts: false })]),
    // The operator-declared kind of action, as the verb concept it implies (lookup → read).
    intentClass: CLASS_TERMS[doc.intentClass] ?? [],
  };
}

/** A query term with its weight (how much its source is trusted: tool name > arguments > chat). */
export interface QueryTerm {
  term: string;
  weight: number;
  /** Where the term came from (see the classifier's SOURCE_WEIGHTS); informational here. */
  source?: string;
}

export interface SearchHit<L extends string = string> {
  doc: IntentionDocument<L>;
  score: number;
  /** Query terms found in the document, strongest contribution first. */
  matchedTerms: string[];
}
