/**
 * Tokenisation shared by the intention index and the tool-call query, so both sides land on the
 * same terms. Pipeline: split identifiers → lowercase → drop stop words → expand a few
 * abbreviations → light stemming → map a small set of verb synonyms onto one concept term.
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
  for (const chunk of text.split(/[^A-Za-z0-9]+/)) {
    if (chunk === '') continue;
    const parts = chunk
      .replace(/([a-z])([A-Z])/g, '$1 $2')
      .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
      .replace(/([A-Za-z])([0-9])/g, '$1 $2')
      .replace(/([0-9])([A-Za-z])/g, '$1 $2')
      .split(' ');
    for (const p of parts) if (p !== '') out.push(p.toLowerCase());
  }
  return out;
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
export const ABBREVIATIONS: Readonly<Record<string, readonly string[]>> = {
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
};

const VOWEL = /[aeiouy]/;

/**
 * A tiny suffix stripper (a much reduced Porter step 1): plural -s/-es/-ies, past -ed/-ied,
 * gerund -ing, then a final silent -e, so that create/creates/created/creating all give `creat`
 * and invoice/invoices give `invoic`. Guards keep short words and words without a vowel left of
 * the suffix intact (`string`, `status`, `analysis`, `address`, `news`). `-er` is NOT stripped:
 * it would merge customer/custom, order, folder/fold, filter, while agent nouns (exporter) are
 * rare in tool calls.
 */
export function stem(word: string): string {
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
 * Verb concepts. Operators write "look up", "view", "retrieve"; agents' tools say get_, list_,
 * search_, fetch_. Mapping each synonym onto one concept term lets the verb carry the near-miss
 * distinctions that matter for authorization — read vs write vs delete vs export vs send —
 * without any semantic model. Plain words here; their stems are derived below.
 */
const CONCEPTS: Readonly<Record<string, readonly string[]>> = {
  read: ['get', 'fetch', 'read', 'retrieve', 'lookup', 'look', 'find', 'search', 'query', 'show', 'view', 'list', 'browse', 'see', 'inspect', 'describe', 'check'],
  write: ['create', 'add', 'insert', 'update', 'edit', 'modify', 'change', 'set', 'put', 'patch', 'write', 'save', 'upsert', 'amend', 'submit', 'post'],
  delete: ['delete', 'remove', 'drop', 'destroy', 'erase', 'purge'],
  export: ['export', 'download', 'dump', 'extract'],
  send: ['send', 'compose', 'reply', 'respond', 'forward'],
  analyse: ['analyse', 'analyze', 'analysis'],
};

const CONCEPT_OF: ReadonlyMap<string, string> = new Map(Object.entries(CONCEPTS).flatMap(([concept, words]) => words.map((w) => [stem(w), concept] as const)));

/** The action concepts (read, write, delete, export, send): what authorization cares about. */
export const ACTION_CONCEPTS: ReadonlySet<string> = new Set(['read', 'write', 'delete', 'export', 'send']);

export function canonical(stemmed: string): string {
  return CONCEPT_OF.get(stemmed) ?? stemmed;
}

/**
 * Words that are verbs in identifiers (`list_invoices`) but nouns in prose ("export the contact
 * list"). In prose they stay literal instead of becoming a verb concept.
 */
const NOUN_IN_PROSE: ReadonlySet<string> = new Set(['list']);

export interface TokenizeOptions {
  /** Drop words containing digits (ids, dates, versions in free text and argument values). */
  dropDigits?: boolean;
  /** Text is prose (descriptions, chat), not an identifier: see NOUN_IN_PROSE. */
  prose?: boolean;
}

/** Full pipeline; returns terms in order, duplicates kept (callers count frequencies). */
export function tokenize(text: string, options: TokenizeOptions = {}): string[] {
  const out: string[] = [];
  // With dropDigits, a whole chunk between separators goes when it holds a digit (`Nf82kd0`),
  // before camelCase splitting would cut it into pseudo-words.
  const source = options.dropDigits ? text.split(/[^A-Za-z0-9]+/).filter((c) => !/[0-9]/.test(c)).join(' ') : text;
  for (const raw of splitWords(source)) {
    if (/^[0-9]+$/.test(raw)) continue;
    if (raw.length < 2 || STOP_WORDS.has(raw)) continue;
    for (const w of ABBREVIATIONS[raw] ?? [raw]) {
      const s = stem(w);
      out.push(options.prose && NOUN_IN_PROSE.has(s) ? s : canonical(s));
    }
  }
  return out;
}

/**
 * Operators state exclusions in their own sentence ("Deleting records is not covered.",
 * "No DDL or DML."). Indexing those words would make the intention match exactly the calls it
 * excludes, so sentences with a negation cue are left out of the indexed description.
 */
export function affirmativeSentences(text: string): string {
  return text
    .split(/(?<=[.;!?])\s+|\n+/)
    .filter((s) => !/\b(not|no|never|nor|without|except|excluding)\b|n't\b/i.test(s))
    .join(' ');
}
