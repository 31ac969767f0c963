import { mulberry32 } from '@igw/testing';
import {
  checkGlobCover,
  compileScopeGlob,
  globCovers,
  globsCover,
  globsIntersect,
  intersectionExample,
  matchesAnyGlob,
  matchesGlob,
  SCOPE_GLOB_MAX_LENGTH,
  SCOPE_GLOB_MAX_WILDCARDS,
  scopeGlobProblem,
} from './scope-glob';

/** The language written as a (backtracking) RegExp: fine as a reference on small inputs. */
const reference = (pattern: string): RegExp =>
  new RegExp(
    '^' +
      pattern
        .split(/(\*+)/)
        .map((part) => (part === '' ? '' : part === '*' ? '[^./:]*' : /^\*+$/.test(part) ? '[\\s\\S]*' : part.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')))
        .join('') +
      '$',
  );

const pick = <T>(rnd: () => number, items: readonly T[]): T => items[Math.floor(rnd() * items.length)]!;
const randomPattern = (rnd: () => number, maxParts: number): string => {
  const n = 1 + Math.floor(rnd() * maxParts);
  let out = '';
  for (let i = 0; i < n; i++) out += pick(rnd, ['a', 'b', '.', '/', ':', 'a', 'b', '*', '**']);
  return out;
};
const randomValue = (rnd: () => number, maxLength: number): string => {
  const n = Math.floor(rnd() * (maxLength + 1));
  let out = '';
  for (let i = 0; i < n; i++) out += pick(rnd, ['a', 'b', '.', '/', ':', 'x']);
  return out;
};
/** Every string over {a, b, x, ., /, :} up to `max` characters: short counterexamples cannot hide. */
function allStrings(max: number): string[] {
  const out = [''];
  let layer = [''];
  for (let len = 1; len <= max; len++) {
    layer = layer.flatMap((s) => ['a', 'b', 'x', '.', '/', ':'].map((c) => s + c));
    out.push(...layer);
  }
  return out;
}
const SHORT_STRINGS = allStrings(5);

describe('scope glob syntax', () => {
  it.each([
    ['crm.contacts.read', null],
    ['crm://contacts/*', null],
    ['**', null],
    ['a?[b]{c}\\', null],
    ['', 'must be a non-empty pattern'],
    ['x'.repeat(SCOPE_GLOB_MAX_LENGTH + 1), `must be at most ${SCOPE_GLOB_MAX_LENGTH} characters`],
    ['a*'.repeat(SCOPE_GLOB_MAX_WILDCARDS + 1), `must use at most ${SCOPE_GLOB_MAX_WILDCARDS} wildcards`],
  ])('%p → %p', (pattern, problem) => {
    expect(scopeGlobProblem(pattern)).toBe(problem);
  });

  it('counts a run of stars as one wildcard, and accepts the limits exactly', () => {
    expect(scopeGlobProblem('x'.repeat(SCOPE_GLOB_MAX_LENGTH))).toBeNull();
    expect(scopeGlobProblem('a*'.repeat(SCOPE_GLOB_MAX_WILDCARDS))).toBeNull();
    expect(scopeGlobProblem('a***'.repeat(SCOPE_GLOB_MAX_WILDCARDS))).toBeNull();
  });

  it('refuses a non-string', () => {
    expect(scopeGlobProblem(42)).toBe('must be a non-empty pattern');
    expect(scopeGlobProblem(undefined)).toBe('must be a non-empty pattern');
  });

  it('throws RangeError when compiling or matching an invalid pattern (callers fail closed)', () => {
    expect(() => compileScopeGlob('')).toThrow(RangeError);
    expect(() => matchesGlob('a', '')).toThrow(RangeError);
    expect(() => globCovers('**', 'x'.repeat(SCOPE_GLOB_MAX_LENGTH + 1))).toThrow(RangeError);
  });

  it('caches compiled patterns', () => {
    expect(compileScopeGlob('crm.*')).toBe(compileScopeGlob('crm.*'));
    expect(compileScopeGlob('crm.*').literal).toBe(false);
    expect(compileScopeGlob('crm.read').literal).toBe(true);
  });
});

describe('matchesGlob', () => {
  it.each([
    // literal
    ['crm.contacts.read', 'crm.contacts.read', true],
    ['crm.contacts.readx', 'crm.contacts.read', false],
    ['crm.contacts.rea', 'crm.contacts.read', false],
    // * stays within a segment
    ['crm.contacts.read', 'crm.*.read', true],
    ['crm..read', 'crm.*.read', true],
    ['crm.contacts.deals.read', 'crm.*.read', false],
    ['crm.read', 'crm.*', true],
    ['crm.', 'crm.*', true],
    ['crm', 'crm.*', false],
    ['crm.contacts.read', 'crm.*', false],
    ['crm.search_contacts', 'crm.search*', true],
    ['crm.search.contacts', 'crm.search*', false],
    ['crm://contacts/123', 'crm://contacts/*', true],
    ['crm://contacts/123/notes', 'crm://contacts/*', false],
    ['crm:x', '*:x', true],
    ['a/b:x', '*:x', false],
    ['crm://contacts/1', '*', false],
    ['anything-without-separators', '*', true],
    // ** crosses segments
    ['crm.contacts.read', 'crm.**', true],
    ['crm.', 'crm.**', true],
    ['crm', 'crm.**', false],
    ['crm://contacts/123/notes', 'crm://**', true],
    ['s3://bucket/a/b/c.txt', 's3://bucket/**', true],
    ['s3://other/a', 's3://bucket/**', false],
    ['s3://bucket/a/b/c.txt', 's3://bucket/**.txt', true],
    ['s3://bucket/a/b/c.csv', 's3://bucket/**.txt', false],
    ['', '**', true],
    ['x.y/z:w', '**', true],
    ['a.b', 'a***b', true],
    // mixed
    ['crm.contacts.v2.read', 'crm.**.read', true],
    ['crm.read', 'crm.**.read', false],
    ['crm..read', 'crm.**.read', true],
    ['crm.contacts.read', 'crm.*.**', true],
    ['crm.contacts', 'crm.*.**', false],
    ['a.b.c.d', '*.*.*.*', true],
    ['a.b.c', '*.*.*.*', false],
    ['abab.x', '*ab*.x', true],
    ['ab.x', '*ab*.x', true],
    ['a.b.x', '*ab*.x', false],
    // everything else is literal
    ['crm.a', 'crm.?', false],
    ['crm.?', 'crm.?', true],
    ['[a]', '[a]', true],
    ['a', '[a]', false],
    ['crm.*', 'crm.*', true],
  ])('%p against %p → %p', (value, pattern, expected) => {
    expect(matchesGlob(value, pattern)).toBe(expected);
    expect(reference(pattern).test(value)).toBe(expected);
  });

  it('matchesAnyGlob: any of the patterns', () => {
    expect(matchesAnyGlob('crm.read', ['billing.*', 'crm.*'])).toBe(true);
    expect(matchesAnyGlob('crm.read', ['billing.*'])).toBe(false);
    expect(matchesAnyGlob('crm.read', [])).toBe(false);
  });

  it('agrees with the reference on random patterns and values', () => {
    const rnd = mulberry32(7);
    for (let n = 0; n < 20_000; n++) {
      const pattern = randomPattern(rnd, 8);
      const value = randomValue(rnd, 10);
      const expected = reference(pattern).test(value);
      if (matchesGlob(value, pattern) !== expected) throw new Error(`matchesGlob(${JSON.stringify(value)}, ${JSON.stringify(pattern)}) should be ${expected}`);
    }
  });

  it('stays fast on patterns and values that make a backtracking matcher explode', () => {
    const pattern = '*a'.repeat(SCOPE_GLOB_MAX_WILDCARDS / 2) + '**a'.repeat(SCOPE_GLOB_MAX_WILDCARDS / 2) + 'b';
    const value = 'a'.repeat(50_000);
    const started = Date.now();
    expect(matchesGlob(value, pattern)).toBe(false);
    expect(matchesGlob('a'.repeat(20) + '.a'.repeat(16) + 'b', pattern)).toBe(true);
    expect(Date.now() - started).toBeLessThan(1000);
  });
});

describe('globCovers', () => {
  it.each([
    ['crm.*', 'crm.read', true],
    ['crm.*', 'crm.contacts.read', false],
    ['crm.**', 'crm.contacts.read', true],
    ['crm.**', 'crm.*', true],
    ['crm.**', 'crm.*.read', true],
    ['crm.*', 'crm.**', false],
    ['crm.*', 'crm.search*', true],
    ['crm.search*', 'crm.*', false],
    ['crm.*.read', 'crm.contacts.read', true],
    ['crm.*.read', 'crm.*.*', false],
    ['crm.**.read', 'crm.*.read', true],
    ['crm.**.read', 'crm.**.read', true],
    ['crm.**.read', 'crm.**', false],
    ['*', '**', false],
    ['**', '*', true],
    ['**', 'anything://at/all', true],
    ['*', 'a*b', true],
    ['a*', 'ab*', true],
    ['ab*', 'a*', false],
    ['*b', 'a*b', true],
    ['a*b*c', 'a*bxb*c', true],
    ['crm://contacts/*', 'crm://contacts/123', true],
    ['crm://contacts/*', 'crm://contacts/*/notes', false],
    ['crm://**', 'crm://contacts/*/notes', true],
    ['s3://bucket/**', 's3://bucket/*.csv', true],
    ['s3://bucket/**', 's3://*/x', false],
  ])('%p ⊇ %p → %p', (outer, inner, expected) => {
    expect(globCovers(outer, inner)).toBe(expected);
  });

  it('gives an example the outer pattern misses', () => {
    const result = checkGlobCover(['crm.*'], 'crm.**');
    expect(result.covered).toBe(false);
    const example = (result as { example: string }).example;
    expect(matchesGlob(example, 'crm.**')).toBe(true);
    expect(matchesGlob(example, 'crm.*')).toBe(false);
  });

  it('takes the union of several outer patterns, which may cover what none covers alone', () => {
    const outers = ['x.*', 'x.*.**', 'x.*/**', 'x.*:**'];
    expect(outers.some((o) => globCovers(o, 'x.**'))).toBe(false);
    expect(globsCover(outers, 'x.**')).toBe(true);
    expect(globsCover(outers.slice(0, 3), 'x.**')).toBe(false);
    expect(globsCover(['a.*', 'b.*'], 'a.x')).toBe(true);
    expect(globsCover([], 'a.x')).toBe(false);
    expect(globsCover([], 'a.*')).toBe(false);
  });

  it('is exact on random patterns: a counterexample is real, and "covered" has none up to 5 characters', () => {
    const rnd = mulberry32(11);
    for (let n = 0; n < 1500; n++) {
      const outers = Array.from({ length: 1 + Math.floor(rnd() * 2) }, () => randomPattern(rnd, 5));
      const inner = randomPattern(rnd, 5);
      const result = checkGlobCover(outers, inner);
      const name = `${JSON.stringify(outers)} ⊇ ${JSON.stringify(inner)}`;
      if (result.covered) {
        const missed = SHORT_STRINGS.find((s) => matchesGlob(s, inner) && !matchesAnyGlob(s, outers));
        if (missed !== undefined) throw new Error(`${name} said covered, but misses ${JSON.stringify(missed)}`);
      } else {
        const example = result.example;
        if (example === null || !matchesGlob(example, inner) || matchesAnyGlob(example, outers)) {
          throw new Error(`${name} said not covered with a wrong example ${JSON.stringify(example)}`);
        }
      }
    }
  });

  it('is consistent with matchesGlob: a literal inner pattern is covered exactly when it matches', () => {
    const rnd = mulberry32(13);
    for (let n = 0; n < 5000; n++) {
      const outer = randomPattern(rnd, 6);
      const value = randomValue(rnd, 6).replace(/:/g, '.') || 'a';
      expect(globCovers(outer, value)).toBe(matchesGlob(value, outer));
    }
  });

  it('is reflexive and transitive on random patterns', () => {
    const rnd = mulberry32(17);
    for (let n = 0; n < 1000; n++) {
      const [a, b, c] = [randomPattern(rnd, 5), randomPattern(rnd, 5), randomPattern(rnd, 5)];
      expect(globCovers(a, a)).toBe(true);
      if (globCovers(a, b) && globCovers(b, c)) expect(globCovers(a, c)).toBe(true);
    }
  });

  it('answers quickly for the largest allowed patterns', () => {
    const outer = '*a'.repeat(SCOPE_GLOB_MAX_WILDCARDS);
    const inner = '**a'.repeat(SCOPE_GLOB_MAX_WILDCARDS);
    const started = Date.now();
    expect(globCovers(outer, inner)).toBe(false);
    expect(globCovers(inner, outer)).toBe(true);
    expect(Date.now() - started).toBeLessThan(2000);
  });
});

describe('globsIntersect', () => {
  it.each([
    ['crm.*', 'crm.delete', true],
    ['crm.*', 'billing.*', false],
    ['crm.*', '*.delete', true],
    ['crm.*.read', 'crm.contacts.*', true],
    ['crm.*', 'crm.*.*', false],
    ['crm.**', 'crm.*.*', true],
    ['a*', '*b', true],
    ['a.*', '*/b', false],
    ['**', 'x', true],
    ['**', '*', true],
  ])('%p ∩ %p ≠ ∅ → %p', (a, b, expected) => {
    expect(globsIntersect(a, b)).toBe(expected);
    expect(globsIntersect(b, a)).toBe(expected);
  });

  it('gives a value both match', () => {
    const example = intersectionExample('crm.*.read', 'crm.contacts*.*');
    expect(example).not.toBeNull();
    expect(matchesGlob(example!, 'crm.*.read')).toBe(true);
    expect(matchesGlob(example!, 'crm.contacts*.*')).toBe(true);
  });

  it('is exact on random patterns', () => {
    const rnd = mulberry32(19);
    for (let n = 0; n < 3000; n++) {
      const a = randomPattern(rnd, 5);
      const b = randomPattern(rnd, 5);
      const example = intersectionExample(a, b);
      if (example === null) {
        const both = SHORT_STRINGS.find((s) => matchesGlob(s, a) && matchesGlob(s, b));
        if (both !== undefined) throw new Error(`${a} ∩ ${b} said empty, but both match ${JSON.stringify(both)}`);
      } else if (!matchesGlob(example, a) || !matchesGlob(example, b)) {
        throw new Error(`${a} ∩ ${b} gave ${JSON.stringify(example)}, which is not in both`);
      }
      // covers implies intersects (every pattern matches something)
      if (globCovers(a, b)) expect(example).not.toBeNull();
    }
  });
});
