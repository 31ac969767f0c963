import { tokenize } from './tokenize';

/**
 * Operators state exclusions in their own words ("Deleting records is not covered.", "No DDL or
 * DML.", "… without reading its rows", "Reading a secret is infra.secret_read."). Indexing those
 * words would make the intention match exactly the calls it excludes, so each sentence is split
 * into what it covers and what it excludes (`splitExclusions`), and only the first is indexed.
 * Sentences about the approval process ("Requires approval.", "Needs approval from finance.")
 * are left out too: they say who signs off, not what the intention is for.
 */
export function affirmativeSentences(text: string): string {
  return splitExclusions(text)
    .map((s) => s.covered)
    .filter((s) => s.length > 0)
    .join(' ');
}

/**
 * The terms of each excluded part ("merging", "reading its rows", "a secret"): what the
 * intention says it is not for. Exclusions that carve an exception ("anything other than pods",
 * "other wiki pages") are left out: their words name what is covered, or something only a
 * reader of the whole catalogue could tell apart.
 */
export function exclusionTerms(text: string): string[][] {
  return splitExclusions(text)
    .map((s) => s.excluded)
    .filter((s) => s.length > 0 && !CARVE_OUT.test(s))
    .map((s) => tokenize(s.replace(LABEL, ' '), { prose: true }))
    .filter((terms) => terms.length > 0);
}

/**
 * Per sentence (or clause ended by `;` or `:`), its covered and excluded parts: a cue that opens
 * the exclusion ("without", "except", "excluding", "no", "never") excludes what follows it; one
 * that closes it ("… is not covered", "… are under code.review", "… is infra.secret_read")
 * excludes what precedes it; any other negation excludes the whole sentence.
 */
export function splitExclusions(text: string): { covered: string; excluded: string }[] {
  const out: { covered: string; excluded: string }[] = [];
  for (const sentence of text.split(/(?<=[.;:!?])\s+|\n+/)) {
    if (APPROVAL_NOTE.test(sentence)) continue;
    const opening = OPENING_CUE.exec(sentence);
    const closing = CLOSING_CUE.exec(sentence) ?? REFERRAL.exec(sentence);
    if (closing) out.push({ covered: '', excluded: sentence.slice(0, closing.index) });
    else if (opening) out.push({ covered: sentence.slice(0, opening.index), excluded: sentence.slice(opening.index + opening[0].length) });
    else if (NEGATION.test(sentence)) out.push({ covered: '', excluded: sentence });
    else out.push({ covered: sentence, excluded: '' });
  }
  return out;
}

const OPENING_CUE = /\b(?:without|except(?: for)?|excluding|never|not|no)\b/i;
const CLOSING_CUE = /\b(?:is|are)\s+(?:not|never)\b|\b(?:is|are)\s+(?:out of scope|excluded|separate|forbidden|prohibited)\b/i;
// "Pull request diffs are under code.pull_request_review", "Reading a secret is infra.secret_read":
// the sentence sends those calls to another intention, by its label.
const REFERRAL = /\b(?:is|are|under|see|belongs? to|go(?:es)? to|handled by|covered by)\s+(?:the\s+)?[a-z][a-z0-9_-]*(?:\.[a-z0-9_-]+)+\b/i;
const CARVE_OUT = /\b(other|except|besides|apart from|but not|only)\b/i;
const LABEL = /\b[a-z][a-z0-9_-]*(?:\.[a-z0-9_-]+)+\b/g;
const NEGATION = /\b(not|no|never|nor|without|except|excluding|excludes?|excluded|cannot|prohibited|forbidden|disallowed)\b|n't\b|\bout of scope\b/i;
const APPROVAL_NOTE = /\b(requires?|required|needs?|needed|subject to)\b[^.;]*\bapprovals?\b|\bapprovals? (is |are )?(required|needed)\b/i;
