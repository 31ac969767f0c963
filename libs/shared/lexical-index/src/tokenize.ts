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
        ((prev === Kind.Digit) !== (cur === Kind.Digit));
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
  'a', 'about', 'above', 'after', 'again', 'all', 'also', 'am', 'an', 'and', 'any', 'are', 'as', 'at',
  'be', 'been', 'before', 'being', 'both', 'but', 'by', 'can', 'could', 'did', 'do', 'does', 'doing',
  'during', 'e', 'each', 'eg', 'etc', 'for', 'from', 'g', 'had', 'has', 'have', 'having', 'he', 'her',
  'here', 'hers', 'him', 'his', 'how', 'i', 'ie', 'if', 'in', 'into', 'is', 'it', 'its', 'just', 'let',
  'me', 'might', 'more', 'most', 'must', 'my', 'no', 'nor', 'not', 'now', 'of', 'on', 'one',
  'only', 'or', 'other', 'our', 'ours', 'out', 'over', 'own', 'per', 'please', 'same', 'shall', 'she',
  'should', 'so', 'some', 'such', 'than', 'that', 'the', 'their', 'theirs', 'them', 'then', 'there',
  'these', 'they', 'this', 'those', 'through', 'to', 'too', 'under', 'until', 'up', 'us', 'very', 'via',
  'was', 'we', 'were', 'what', 'when', 'where', 'which', 'while', 'who', 'whom', 'why', 'will', 'with',
  'would', 'you', 'your', 'yours',
  'object', 'objects', 'item', 'items', 'entity', 'entities', 'batch',
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

const VOWEL = /[aeiouy]/;

/**
 * Inflection only: plural -s/-es/-ies, past -ed/-ied, gerund -ing, then a final silent -e, so
 * that create/creates/created/creating all give `creat`. Used to recognise the inflected forms
 * of the verbs in CONCEPTS without Porter's derivational merges (`settings` must not become the
 * verb `set`). Guards keep short words and words without a vowel left of the suffix intact.
 */
export function inflectionStem(word: string): string {
  let w = word;
  if (w.length <= 3) return w;
  if (w.endsWith('ies') && w.length > 4) w = `${w.slice(0, -3)}y`;
  else if (w.endsWith('ied') && w.length > 4) w = `${w.slice(0, -3)}y`;
  else if (/(ss|us|is)$/.test(w)) {
    // address, status, analysis: not plurals
  } else if (/(sses|xes|zes|ches|shes)$/.test(w)) w = w.slice(0, -2);
  else if (w.endsWith('s') && !w.endsWith('ss')) w = w.slice(0, -1);
  else if (w.endsWith('eed')) {
    // need, feed, speed
  } else if (w.endsWith('ed') && VOWEL.test(w.slice(0, -2)) && w.length > 4) w = undouble(w.slice(0, -2));
  else if (w.endsWith('ing') && VOWEL.test(w.slice(0, -3)) && w.length > 5) w = undouble(w.slice(0, -3));
  if (w.length > 3 && w.endsWith('e') && !w.endsWith('ee')) w = w.slice(0, -1);
  return w;
}

/** shipp → ship, gett → get; but bill, pass, buzz and 3-letter add keep their double letter. */
function undouble(w: string): string {
  const n = w.length;
  if (n > 3 && w[n - 1] === w[n - 2] && !/[lsz]/.test(w[n - 1]!)) return w.slice(0, -1);
  return w;
}

/**
 * Words Porter would merge with an unrelated word of this domain (customer → custom), kept as
 * they are.
 */
const STEM_EXCEPTIONS: ReadonlyMap<string, string> = new Map([
  ['customer', 'customer'],
  ['customers', 'customer'],
  ['news', 'news'],
]);

/**
 * The Porter stemmer (M. F. Porter, 1980; step 1c as in Porter2), which also merges
 * derivations an operator and an agent use for the same thing: deploy / deployment, assign /
 * assignment, rotate / rotation, provision / provisioning, share / sharing, available /
 * availability.
 */
export function stem(word: string): string {
  const exception = STEM_EXCEPTIONS.get(word);
  if (exception !== undefined) return exception;
  if (word.length <= 2) return word;
  let w = word;
  // Step 1a: plurals.
  if (w.endsWith('sses') || w.endsWith('ies')) w = w.slice(0, -2);
  else if (w.endsWith('s') && !w.endsWith('ss')) w = w.slice(0, -1);
  // Step 1b: -eed, -ed, -ing.
  let tidy = false;
  if (w.endsWith('eed')) {
    if (measure(w.slice(0, -3)) > 0) w = w.slice(0, -1);
  } else if (w.endsWith('ed') && hasVowel(w.slice(0, -2))) {
    w = w.slice(0, -2);
    tidy = true;
  } else if (w.endsWith('ing') && hasVowel(w.slice(0, -3))) {
    w = w.slice(0, -3);
    tidy = true;
  }
  if (tidy) {
    if (w.endsWith('at') || w.endsWith('bl') || w.endsWith('iz')) w += 'e';
    else if (doubleConsonant(w) && !/[lsz]$/.test(w)) w = w.slice(0, -1);
    else if (measure(w) === 1 && cvc(w)) w += 'e';
  }
  // Step 1c, as in Porter2: terminal y after a consonant that is not the first letter
  // (query → queri, but deploy and pay stay, so deploy/deployment/deployed agree).
  if (w.length > 2 && w.endsWith('y') && !/[aeiouy]/.test(w[w.length - 2]!)) w = `${w.slice(0, -1)}i`;
  // Steps 2 and 3: derivational suffixes (m > 0).
  w = replaceSuffix(w, STEP2, 0);
  w = replaceSuffix(w, STEP3, 0);
  // Step 4: remove a suffix when m > 1.
  for (const suffix of STEP4) {
    if (!w.endsWith(suffix)) continue;
    const base = w.slice(0, -suffix.length);
    if (measure(base) > 1 && (suffix !== 'ion' || /[st]$/.test(base))) w = base;
    break;
  }
  // Step 5: final -e and -ll.
  if (w.endsWith('e')) {
    const base = w.slice(0, -1);
    const m = measure(base);
    if (m > 1 || (m === 1 && !cvc(base))) w = base;
  }
  if (w.endsWith('ll') && measure(w) > 1) w = w.slice(0, -1);
  return w;
}

const STEP2: readonly (readonly [string, string])[] = [
  ['ational', 'ate'], ['tional', 'tion'], ['enci', 'ence'], ['anci', 'ance'], ['izer', 'ize'], ['bli', 'ble'],
  ['alli', 'al'], ['entli', 'ent'], ['eli', 'e'], ['ousli', 'ous'], ['ization', 'ize'], ['ation', 'ate'],
  ['ator', 'ate'], ['alism', 'al'], ['iveness', 'ive'], ['fulness', 'ful'], ['ousness', 'ous'], ['aliti', 'al'],
  ['iviti', 'ive'], ['biliti', 'ble'], ['logi', 'log'],
];
const STEP3: readonly (readonly [string, string])[] = [
  ['icate', 'ic'], ['ative', ''], ['alize', 'al'], ['iciti', 'ic'], ['ical', 'ic'], ['ful', ''], ['ness', ''],
];
const STEP4: readonly string[] = ['al', 'ance', 'ence', 'er', 'ic', 'able', 'ible', 'ant', 'ement', 'ment', 'ent', 'ion', 'ou', 'ism', 'ate', 'iti', 'ous', 'ive', 'ize'];

/** The first matching suffix is replaced when the rest has measure > min; later ones are not tried. */
function replaceSuffix(w: string, rules: readonly (readonly [string, string])[], min: number): string {
  for (const [suffix, replacement] of rules) {
    if (!w.endsWith(suffix)) continue;
    const base = w.slice(0, -suffix.length);
    return measure(base) > min ? base + replacement : w;
  }
  return w;
}

/** Porter's consonant: not a vowel, and `y` only when it follows a vowel (or starts the word). */
function isConsonant(w: string, i: number): boolean {
  const c = w[i]!;
  if (c === 'a' || c === 'e' || c === 'i' || c === 'o' || c === 'u') return false;
  return c !== 'y' || i === 0 || !isConsonant(w, i - 1);
}

/** m in [C](VC)^m[V]: the number of vowel-consonant sequences. */
function measure(w: string): number {
  let m = 0;
  let i = 0;
  const n = w.length;
  while (i < n && isConsonant(w, i)) i++;
  while (i < n) {
    while (i < n && !isConsonant(w, i)) i++;
    if (i >= n) break;
    while (i < n && isConsonant(w, i)) i++;
    m++;
  }
  return m;
}

function hasVowel(w: string): boolean {
  for (let i = 0; i < w.length; i++) if (!isConsonant(w, i)) return true;
  return false;
}

function doubleConsonant(w: string): boolean {
  const n = w.length;
  return n >= 2 && w[n - 1] === w[n - 2] && isConsonant(w, n - 1);
}

/** Consonant-vowel-consonant ending, the last not w, x or y (hop, but not snow). */
function cvc(w: string): boolean {
  const n = w.length;
  return n >= 3 && isConsonant(w, n - 3) && !isConsonant(w, n - 2) && isConsonant(w, n - 1) && !/[wxy]/.test(w[n - 1]!);
}

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
  read: ['get', 'fetch', 'read', 'retrieve', 'lookup', 'find', 'search', 'query', 'show', 'view', 'list', 'browse', 'see', 'inspect', 'describe', 'check', 'load', 'preview'],
  write: ['create', 'add', 'insert', 'update', 'edit', 'modify', 'change', 'set', 'put', 'patch', 'write', 'save', 'upsert', 'amend', 'submit', 'post', 'upload', 'append', 'rename', 'replace'],
  delete: ['delete', 'remove', 'drop', 'destroy', 'erase', 'purge', 'cancel', 'cancelled', 'revoke', 'trash', 'wipe'],
  export: ['export', 'download', 'dump', 'extract', 'render'],
  send: ['send', 'compose', 'reply', 'respond', 'forward', 'notify'],
  analyse: ['analyse', 'analyze', 'analysis'],
  deactivate: ['deactivate', 'disable', 'suspend', 'deprovision', 'offboard'],
  activate: ['activate', 'reactivate', 'enable', 'unsuspend'],
  run: ['run', 'execute'],
  rollback: ['rollback', 'revert'],
};

const CONCEPT_OF: ReadonlyMap<string, string> = new Map(Object.entries(CONCEPTS).flatMap(([concept, words]) => words.map((w) => [inflectionStem(w), concept] as const)));

/** The action concepts (read, write, delete, export, send): what authorization cares about. */
export const ACTION_CONCEPTS: ReadonlySet<string> = new Set(['read', 'write', 'delete', 'export', 'send']);

/**
 * Verbs that name a specific action when a tool name contains them (`merge_pull_request`,
 * `okta.reset_password`), besides the concepts above. Generic ones (run, execute, trigger,
 * process) and words that are as often nouns (order, book, comment, label, request, report,
 * review) are left out: they do not say which action is taken.
 */
const SPECIFIC_VERBS: readonly string[] = [
  'approve', 'reject', 'deny', 'decline', 'merge', 'close', 'reopen', 'resolve', 'escalate', 'archive', 'unarchive',
  'restore', 'publish', 'unpublish', 'schedule', 'reschedule', 'invite', 'assign', 'unassign', 'grant', 'share',
  'unshare', 'rotate', 'reset', 'deploy', 'scale', 'restart', 'refund', 'pay', 'transfer', 'upgrade', 'downgrade',
  'lock', 'unlock', 'block', 'unblock', 'translate', 'calculate', 'convert', 'import', 'sync', 'tag', 'triage',
  'play', 'pause', 'provision',
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
  ['look', new Map([['up', 'read'], ['for', 'read'], ['at', 'read'], ['into', 'read']])],
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
 * Operators state exclusions in their own sentence ("Deleting records is not covered.",
 * "No DDL or DML."). Indexing those words would make the intention match exactly the calls it
 * excludes, so sentences with a negation cue are left out of the indexed description. So are
 * sentences about the approval process ("Requires approval.", "Needs approval from finance."):
 * they say who signs off, not what the intention is for.
 */
export function affirmativeSentences(text: string): string {
  return text
    .split(/(?<=[.;!?])\s+|\n+/)
    .filter((s) => !NEGATION.test(s) && !APPROVAL_NOTE.test(s))
    .join(' ');
}

const NEGATION = /\b(not|no|never|nor|without|except|excluding|excludes?|excluded|cannot|prohibited|forbidden|disallowed)\b|n't\b|\bout of scope\b/i;
const APPROVAL_NOTE = /\b(requires?|required|needs?|needed|subject to)\b[^.;]*\bapprovals?\b|\bapprovals? (is |are )?(required|needed)\b/i;

/**
 * Terms (after tokenize) that name an action: the action concepts, the narrower verb concepts
 * and the specific verbs. Defined last: it runs `canonical`, which needs the tables above.
 */
export const ACTION_VERBS: ReadonlySet<string> = new Set([...ACTION_CONCEPTS, 'deactivate', 'activate', 'rollback', ...SPECIFIC_VERBS.map((v) => canonical(v))]);

