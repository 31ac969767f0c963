import { inflectionStem, stem } from './stem';

/**
 * Tokenisation shared by the intention index and the tool-call query, so both sides land on the
 * same terms. Pipeline: split identifiers → lowercase → drop stop words → expand a few
 * abbreviations → map verbs onto a concept term (read, write, delete, export, send, …) →
 * otherwise Porter-stem.
 *
 * Deliberately small and predictable: the lexical layer must be explainable (matched terms are
 * shown to operators in `classification_evidence`), and semantic bridging beyond these tables is
 * the embedding layer's job.
 */

/**
 * Identifier splitting: any non-alphanumeric run separates (covers `_ . - /`, spaces, `__` in
 * MCP names), then camelCase / PascalCase / acronym boundaries (`getHTTPResponse` → get http
 * response) and letter/digit boundaries.
 */
export function splitWords(text: string): string[] {
  const out: string[] = [];
  forEachWord(text, false, (w) => out.push(w));
  return out;
}

const enum Kind {
  Other,
  Lower,
  Upper,
  Digit,
}

function kindOf(code: number): Kind {
  if (code >= 97 && code <= 122) return Kind.Lower;
  if (code >= 65 && code <= 90) return Kind.Upper;
  if (code >= 48 && code <= 57) return Kind.Digit;
  return Kind.Other;
}

/**
 * `splitWords` as a single pass over the characters, calling `emit` with each lowercased word.
 * With `dropDigitChunks`, a chunk between separators that holds a digit (`Nf82kd0`) is skipped
 * whole, before camelCase splitting would cut it into pseudo-words.
 */
function forEachWord(text: string, dropDigitChunks: boolean, emit: (word: string) => void): void {
  const n = text.length;
  let i = 0;
  while (i < n) {
    while (i < n && kindOf(text.charCodeAt(i)) === Kind.Other) i++;
    const chunkStart = i;
    let hasDigit = false;
    while (i < n) {
      const k = kindOf(text.charCodeAt(i));
      if (k === Kind.Other) break;
      if (k === Kind.Digit) hasDigit = true;
      i++;
    }
    if (chunkStart === i || (dropDigitChunks && hasDigit)) continue;
    let start = chunkStart;
    for (let j = chunkStart + 1; j < i; j++) {
      const prev = kindOf(text.charCodeAt(j - 1));
      const cur = kindOf(text.charCodeAt(j));
      const boundary =
        (prev === Kind.Lower && cur === Kind.Upper) ||
        (prev === Kind.Upper && cur === Kind.Upper && j + 1 < i && kindOf(text.charCodeAt(j + 1)) === Kind.Lower) ||
        (prev === Kind.Digit) !== (cur === Kind.Digit);
      if (boundary) {
        emit(text.slice(start, j).toLowerCase());
        start = j;
      }
    }
    emit(text.slice(start, i).toLowerCase());
  }
}

/**
 * English function words, plus structural words of API naming that say nothing about purpose
 * (`hubspot-batch-update-objects`, `put_item`). "off" is kept (time off, sign-off); "user" is
 * kept (a real object of admin intentions).
 */
export const STOP_WORDS: ReadonlySet<string> = new Set([
  'a',
  'about',
  'above',
  'after',
  'again',
  'all',
  'also',
  'am',
  'an',
  'and',
  'any',
  'are',
  'as',
  'at',
  'be',
  'been',
  'before',
  'being',
  'both',
  'but',
  'by',
  'can',
  'could',
  'did',
  'do',
  'does',
  'doing',
  'during',
  'e',
  'each',
  'eg',
  'etc',
  'for',
  'from',
  'g',
  'had',
  'has',
  'have',
  'having',
  'he',
  'her',
  'here',
  'hers',
  'him',
  'his',
  'how',
  'i',
  'ie',
  'if',
  'in',
  'into',
  'is',
  'it',
  'its',
  'just',
  'let',
  'me',
  'might',
  'more',
  'most',
  'must',
  'my',
  'no',
  'nor',
  'not',
  'now',
  'of',
  'on',
  'one',
  'only',
  'or',
  'other',
  'our',
  'ours',
  'out',
  'over',
  'own',
  'per',
  'please',
  'same',
  'shall',
  'she',
  'should',
  'so',
  'some',
  'such',
  'than',
  'that',
  'the',
  'their',
  'theirs',
  'them',
  'then',
  'there',
  'these',
  'they',
  'this',
  'those',
  'through',
  'to',
  'too',
  'under',
  'until',
  'up',
  'us',
  'very',
  'via',
  'was',
  'we',
  'were',
  'what',
  'when',
  'where',
  'which',
  'while',
  'who',
  'whom',
  'why',
  'will',
  'with',
  'would',
  'you',
  'your',
  'yours',
  'object',
  'objects',
  'item',
  'items',
  'entity',
  'entities',
  'batch',
]);

/** Abbreviations common in tool and field names, expanded before stemming (`repo` → repository). */
export const ABBREVIATIONS: ReadonlyMap<string, readonly string[]> = new Map(
  Object.entries({
    repo: ['repository'],
    repos: ['repository'],
    msg: ['message'],
    msgs: ['message'],
    doc: ['document'],
    docs: ['document'],
    kb: ['knowledge', 'base'],
    pr: ['pull', 'request'],
    prs: ['pull', 'request'],
    pto: ['time', 'off'],
    db: ['database'],
    config: ['configuration'],
    org: ['organization'],
    info: ['information'],
    cal: ['calendar'],
    gcal: ['google', 'calendar'],
    gdrive: ['google', 'drive'],
    acct: ['account'],
    addr: ['address'],
    dept: ['department'],
    env: ['environment'],
    mgr: ['manager'],
    perm: ['permission'],
    perms: ['permission'],
    pwd: ['password'],
    creds: ['credential'],
    txn: ['transaction'],
  }),
);

/** Word → term, so the stemmer runs once per distinct word rather than once per call. */
const TERM_CACHE = new Map<string, string>();
const TERM_CACHE_MAX = 50_000;

/**
 * Verb concepts. Operators write "look up", "view", "retrieve"; agents' tools say get_, list_,
 * search_, fetch_. Mapping each synonym onto one concept term lets the verb carry the near-miss
 * distinctions that matter for authorization — read vs write vs delete vs export vs send —
 * without any semantic model. The last groups are narrower synonyms of API verbs (disable →
 * deactivate, execute → run). Plain words here; inflected forms are recognised too (British
 * "cancelled" is listed because inflectionStem keeps its double l, as in billed → bill).
 */
const CONCEPTS: Readonly<Record<string, readonly string[]>> = {
  read: [
    'get',
    'fetch',
    'read',
    'retrieve',
    'lookup',
    'find',
    'search',
    'query',
    'show',
    'view',
    'list',
    'browse',
    'see',
    'inspect',
    'describe',
    'check',
    'load',
    'preview',
  ],
  write: [
    'create',
    'add',
    'insert',
    'update',
    'edit',
    'modify',
    'change',
    'set',
    'put',
    'patch',
    'write',
    'save',
    'upsert',
    'amend',
    'submit',
    'post',
    'upload',
    'append',
    'rename',
    'replace',
  ],
  delete: ['delete', 'remove', 'drop', 'destroy', 'erase', 'purge', 'cancel', 'cancelled', 'revoke', 'trash', 'wipe'],
  export: ['export', 'download', 'dump', 'extract', 'render'],
  send: ['send', 'compose', 'reply', 'respond', 'forward', 'notify'],
  analyse: ['analyse', 'analyze', 'analysis'],
  deactivate: ['deactivate', 'disable', 'suspend', 'deprovision', 'offboard'],
  activate: ['activate', 'reactivate', 'enable', 'unsuspend'],
  run: ['run', 'execute'],
  rollback: ['rollback', 'revert'],
};

const CONCEPT_OF: ReadonlyMap<string, string> = new Map(
  Object.entries(CONCEPTS).flatMap(([concept, words]) => words.map((w) => [inflectionStem(w), concept] as const)),
);

/** The action concepts (read, write, delete, export, send): what authorization cares about. */
export const ACTION_CONCEPTS: ReadonlySet<string> = new Set(['read', 'write', 'delete', 'export', 'send']);

/**
 * Verbs that name a specific action when a tool name contains them (`merge_pull_request`,
 * `okta.reset_password`), besides the concepts above. Generic ones (run, execute, trigger,
 * process) and words that are as often nouns (order, book, comment, label, request, report,
 * review) are left out: they do not say which action is taken.
 */
const SPECIFIC_VERBS: readonly string[] = [
  'approve',
  'reject',
  'deny',
  'decline',
  'merge',
  'close',
  'reopen',
  'resolve',
  'escalate',
  'archive',
  'unarchive',
  'restore',
  'publish',
  'unpublish',
  'schedule',
  'reschedule',
  'invite',
  'assign',
  'unassign',
  'grant',
  'share',
  'unshare',
  'rotate',
  'reset',
  'deploy',
  'scale',
  'restart',
  'refund',
  'pay',
  'transfer',
  'upgrade',
  'downgrade',
  'lock',
  'unlock',
  'block',
  'unblock',
  'translate',
  'calculate',
  'convert',
  'import',
  'sync',
  'tag',
  'triage',
  'play',
  'pause',
  'provision',
];

/** Nouns that look like an inflected concept verb (`notification_settings` is not a write). */
const NOT_VERB_FORMS: ReadonlySet<string> = new Set(['setting', 'settings']);

/** The term a word becomes: its verb concept if it is one (in any inflection), else its stem. */
export function canonical(word: string): string {
  let term = TERM_CACHE.get(word);
  if (term === undefined) {
    term = NOT_VERB_FORMS.has(word) ? stem(word) : (CONCEPT_OF.get(inflectionStem(word)) ?? CONCEPT_OF.get(word) ?? stem(word));
    // Bounded: tool calls reuse a small vocabulary, but argument values and chat need not.
    if (TERM_CACHE.size >= TERM_CACHE_MAX) TERM_CACHE.clear();
    TERM_CACHE.set(word, term);
  }
  return term;
}

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

/**
 * Terms (after tokenize) that name an action: the action concepts, the narrower verb concepts
 * and the specific verbs. Defined last: it runs `canonical`, which needs the tables above.
 */
export const ACTION_VERBS: ReadonlySet<string> = new Set([
  ...ACTION_CONCEPTS,
  'deactivate',
  'activate',
  'rollback',
  ...SPECIFIC_VERBS.map((v) => canonical(v)),
]);
