import { ACTION_CONCEPTS, canonical } from './concepts';
import { ABBREVIATIONS, STOP_WORDS } from './vocabulary';
import { forEachWord } from './words';

/**
 * Tokenisation shared by the intention index and the tool-call query, so both sides land on the
 * same terms. Pipeline: split identifiers → lowercase → drop stop words → expand a few
 * abbreviations → map verbs onto a concept term (read, write, delete, export, send, …) →
 * otherwise Porter-stem.
 *
 * Deliberately small and predictable: the lexical layer must be explainable (matched terms are
 * shown to operators in `classification_evidence`), and semantic bridging beyond these tables is
 * the embedding layer's job.
 *
 * The steps live in their own files: words.ts (splitting), vocabulary.ts (stop words,
 * abbreviations), concepts.ts (verb concepts, `canonical`); exclusions.ts reads operators'
 * exclusions out of descriptions before they are tokenized.
 */

/**
 * Words that are verbs in identifiers (`list_invoices`) but nouns in prose ("export the contact
 * list"). In prose they stay literal instead of becoming a verb concept.
 */
const NOUN_IN_PROSE: ReadonlySet<string> = new Set(['list']);

/** Two-word verbs whose meaning is not that of their first word alone. */
const PHRASAL_VERBS: ReadonlyMap<string, ReadonlyMap<string, string>> = new Map([
  [
    'look',
    new Map([
      ['up', 'read'],
      ['for', 'read'],
      ['at', 'read'],
      ['into', 'read'],
    ]),
  ],
  ['roll', new Map([['back', 'rollback']])],
]);

export interface TokenizeOptions {
  /** Drop words containing digits (ids, dates, versions in free text and argument values). */
  dropDigits?: boolean;
  /** Text is prose (descriptions, chat), not an identifier: see NOUN_IN_PROSE. */
  prose?: boolean;
  /**
   * Map verbs onto their concept term (default true). When false, words of an action concept
   * (read, write, delete, export, send) are dropped instead: in field names and argument values
   * (`created_at`, `sendEmail: true`, a message body saying "add") they describe data, not the
   * action the call performs, and must not vote for one.
   */
  concepts?: boolean;
}

/** Full pipeline; returns terms in order, duplicates kept (callers count frequencies). */
export function tokenize(text: string, options: TokenizeOptions = {}): string[] {
  const out: string[] = [];
  const concepts = options.concepts !== false;
  const prose = options.prose === true;
  let pending: ReadonlyMap<string, string> | undefined; // second words of a phrasal verb just seen
  const push = (term: string) => {
    if (concepts || !ACTION_CONCEPTS.has(term)) out.push(term);
  };
  const word = (raw: string) => {
    if (pending !== undefined) {
      const phrase = pending.get(raw);
      pending = undefined;
      if (phrase !== undefined) {
        // "look up": replace the literal first word with the phrase's concept.
        out.pop();
        push(phrase);
        return;
      }
    }
    if (raw.length < 2 || STOP_WORDS.has(raw) || isNumber(raw)) return;
    pending = PHRASAL_VERBS.get(raw);
    if (pending !== undefined) {
      out.push(raw); // literal unless the next word completes the phrase
      return;
    }
    const expanded = ABBREVIATIONS.get(raw);
    if (expanded === undefined) {
      push(prose && NOUN_IN_PROSE.has(raw) ? raw : canonical(raw));
      return;
    }
    for (const w of expanded) push(prose && NOUN_IN_PROSE.has(w) ? w : canonical(w));
  };
  forEachWord(text, options.dropDigits === true, word);
  return out;
}

function isNumber(word: string): boolean {
  for (let i = 0; i < word.length; i++) {
    const c = word.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  return true;
}
