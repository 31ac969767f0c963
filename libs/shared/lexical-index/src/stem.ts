/**
 * The stemmers of the tokenizer (tokenize.ts): `inflectionStem` (inflections only, for verbs)
 * and `stem` (Porter, with a few domain exceptions).
 */

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
  if (n > 3 && w[n - 1] === w[n - 2] && !/[lsz]/.test(w.charAt(n - 1))) return w.slice(0, -1);
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
  if (w.length > 2 && w.endsWith('y') && !/[aeiouy]/.test(w.charAt(w.length - 2))) w = `${w.slice(0, -1)}i`;
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
  ['ational', 'ate'],
  ['tional', 'tion'],
  ['enci', 'ence'],
  ['anci', 'ance'],
  ['izer', 'ize'],
  ['bli', 'ble'],
  ['alli', 'al'],
  ['entli', 'ent'],
  ['eli', 'e'],
  ['ousli', 'ous'],
  ['ization', 'ize'],
  ['ation', 'ate'],
  ['ator', 'ate'],
  ['alism', 'al'],
  ['iveness', 'ive'],
  ['fulness', 'ful'],
  ['ousness', 'ous'],
  ['aliti', 'al'],
  ['iviti', 'ive'],
  ['biliti', 'ble'],
  ['logi', 'log'],
];
const STEP3: readonly (readonly [string, string])[] = [
  ['icate', 'ic'],
  ['ative', ''],
  ['alize', 'al'],
  ['iciti', 'ic'],
  ['ical', 'ic'],
  ['ful', ''],
  ['ness', ''],
];
const STEP4: readonly string[] = [
  'al',
  'ance',
  'ence',
  'er',
  'ic',
  'able',
  'ible',
  'ant',
  'ement',
  'ment',
  'ent',
  'ion',
  'ou',
  'ism',
  'ate',
  'iti',
  'ous',
  'ive',
  'ize',
];

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
  const c = w.charAt(i);
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
  return n >= 3 && isConsonant(w, n - 3) && !isConsonant(w, n - 2) && isConsonant(w, n - 1) && !/[wxy]/.test(w.charAt(n - 1));
}
