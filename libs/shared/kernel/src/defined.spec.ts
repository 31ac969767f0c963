import { defined } from './defined';

describe('defined', () => {
  it('returns a present value, falsy ones included', () => {
    expect(defined(0, 'n')).toBe(0);
    expect(defined('', 's')).toBe('');
    expect(defined(false, 'b')).toBe(false);
  });

  it.each([undefined, null])('throws naming what was missing for %p', (value) => {
    expect(() => defined(value, 'the first row')).toThrow('internal invariant broken: the first row is missing');
  });
});
