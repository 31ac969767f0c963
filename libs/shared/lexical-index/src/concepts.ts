import { inflectionStem, stem } from './stem';

// Verb concepts: the terms a word becomes after tokenize has split and expanded it (tokenize.ts).

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
 * Terms (after tokenize) that name an action: the action concepts, the narrower verb concepts
 * and the specific verbs. Defined after them: it runs `canonical`, which needs the tables above.
 */
export const ACTION_VERBS: ReadonlySet<string> = new Set([
  ...ACTION_CONCEPTS,
  'deactivate',
  'activate',
  'rollback',
  ...SPECIFIC_VERBS.map((v) => canonical(v)),
]);
