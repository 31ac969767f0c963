import { BoundedMap } from './bounded-map';

describe('BoundedMap', () => {
  it('drops the oldest insertion when a new key would exceed the capacity', () => {
    const m = new BoundedMap<string, number>(2);
    m.set('a', 1).set('b', 2);
    expect(m.get('a')).toBe(1); // a read does not reorder
    m.set('c', 3);
    expect([...m.keys()]).toEqual(['b', 'c']);
  });

  it('replaces an existing key without dropping another', () => {
    const m = new BoundedMap<string, number>(2);
    m.set('a', 1).set('b', 2).set('a', 10);
    expect([...m.entries()]).toEqual([
      ['a', 10],
      ['b', 2],
    ]);
  });

  it('refuses a capacity that is not a positive integer', () => {
    for (const bad of [0, -1, 1.5, Number.NaN]) expect(() => new BoundedMap(bad)).toThrow(RangeError);
  });
});
