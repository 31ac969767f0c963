// Deterministic randomness for the classification bench's synthetic corpus (see
// classification-scale.mjs): a seeded generator, skewed picks, made-up words.
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

// The seeded generator of the property tests (@igw/testing), as built; loaded on first use so
// that importing this module needs no build (classification-scale.mjs checks dist/ first).
export const MULBERRY32_MODULE = fileURLToPath(new URL('../../dist/libs/shared/testing/src/random/mulberry32.js', import.meta.url));
const require = createRequire(import.meta.url);
export const mulberry32 = (seed) => require(MULBERRY32_MODULE).mulberry32(seed);

/** Picks from `items` with Zipf-like skew `s` (0 = uniform): the first items are the common ones. */
export function zipf(items, s) {
  const cum = [];
  let total = 0;
  for (let i = 0; i < items.length; i++) cum.push((total += 1 / (i + 1) ** s));
  return (rand) => {
    const x = rand() * total;
    let lo = 0;
    let hi = cum.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cum[mid] < x) lo = mid + 1;
      else hi = mid;
    }
    return items[lo];
  };
}

/** An unbounded power-law rank (0, 1, 2, …): P(rank ≥ r) = (r + 1)^-alpha. */
export const powerRank = (rand, alpha) => Math.floor((1 - rand()) ** (-1 / alpha)) - 1;

/** Pronounceable made-up word for rank r (project code names, in-house product names). */
export function coinedWord(r, salt) {
  const onset = ['b', 'br', 'c', 'cr', 'd', 'dr', 'f', 'g', 'gr', 'h', 'k', 'kr', 'l', 'm', 'n', 'p', 'pr', 'qu', 'r', 's', 'st', 't', 'tr', 'v', 'z'];
  const vowel = ['a', 'e', 'i', 'o', 'u', 'ai', 'ea', 'io', 'y'];
  const coda = ['', '', '', 'n', 'r', 'l', 'x', 'k', 'm', 'th'];
  const rand = mulberry32((r + 1) * 2654435761 + salt);
  const syllables = 2 + (rand() < 0.45 ? 1 : 0);
  let w = '';
  for (let i = 0; i < syllables; i++) w += onset[Math.floor(rand() * onset.length)] + vowel[Math.floor(rand() * vowel.length)];
  return w + coda[Math.floor(rand() * coda.length)];
}

export const pick = (rand, xs) => xs[Math.floor(rand() * xs.length)];
export const cap = (s) => s.charAt(0).toUpperCase() + s.slice(1);
export const words = (id) => id.replace(/_/g, ' ');
