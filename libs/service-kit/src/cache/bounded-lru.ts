/**
 * A Map that keeps at most `capacity` entries, forgetting the least recently used first: a cache
 * that anyone's input may fill (a caller per domain) stays a fixed size. Map keeps insertion
 * order, so a read moves its entry to the end and the first key is the oldest.
 */
export class BoundedLru<K, V> {
  private readonly entries = new Map<K, V>();

  constructor(private readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new Error(`BoundedLru needs a capacity of at least 1 (got ${capacity})`);
  }

  get(key: K): V | undefined {
    const value = this.entries.get(key);
    if (value === undefined) return undefined;
    this.entries.delete(key);
    this.entries.set(key, value);
    return value;
  }

  set(key: K, value: V): void {
    this.entries.delete(key);
    this.entries.set(key, value);
    if (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value as K);
  }

  delete(key: K): void {
    this.entries.delete(key);
  }

  get size(): number {
    return this.entries.size;
  }
}
