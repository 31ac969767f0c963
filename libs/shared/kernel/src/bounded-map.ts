/**
 * A Map of at most `capacity` entries: adding a new key to a full one first drops the oldest
 * insertion. A cheap bound for caches of immutable or self-expiring values, not an LRU (reads do
 * not reorder; see the evaluator's LruCache for that).
 */
export class BoundedMap<K, V> extends Map<K, V> {
  constructor(readonly capacity: number) {
    super();
    if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError('BoundedMap capacity must be a positive integer');
  }

  override set(key: K, value: V): this {
    if (this.size >= this.capacity && !this.has(key)) {
      const oldest = this.keys().next();
      if (!oldest.done) this.delete(oldest.value);
    }
    return super.set(key, value);
  }
}
