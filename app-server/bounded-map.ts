/**
 * A Map that holds at most `capacity` entries and drops the oldest when full (insertion order, as Map keeps it).
 * `set` makes an entry the newest; `use` reads it and makes it the newest too, for a least-recently-used bound,
 * where `get` leaves the order alone, for a first-in-first-out one. A capacity of 0 (or less) keeps nothing.
 * The one bound of every in-memory cache of the server: verified tokens, live sessions, cached reads, stream states,
 * the read cache's record of invalidations.
 *
 * With `weigh`, the capacity bounds the entries' total weight instead of their number (the read cache's answers,
 * weighed in bytes: a count bound let 5,000 pages of cards hold a hundred megabytes or more, and every full collection
 * of the heap marked them while all requests in flight waited). Each entry weighs `weigh(value)`, which must give the
 * same number for the same value every time; an entry heavier than the whole capacity is not kept.
 *
 * Past its capacity, it drops its oldest sixteenth at once (below a capacity of 16, only the oldest entry). V8
 * leaves a deleted Map entry in place until its table is rebuilt, and a new iterator starts at the table's first slot:
 * dropping the oldest entry one call at a time, each with a fresh `keys().next()`, walked every entry dropped before
 * it, 22 µs a `set` at a capacity of 50,000 (2.3 s of a 100,000-goal settlement's stake phase went to the read cache's
 * copy of that loop). One walk per sixteenth costs a fraction of a microsecond a `set`.
 */
export class BoundedMap<K, V> {
  readonly #entries = new Map<K, V>();
  readonly #capacity: number;
  /** How many entries are left after the oldest are dropped (at least 1 for a capacity of 1 or more). */
  readonly #keepWhenFull: number;
  readonly #onEvict: ((key: K, value: V) => void) | undefined;
  /** Null: every entry weighs 1, and the weight is the Map's size (no bookkeeping on the hot paths). */
  readonly #weigh: ((value: V) => number) | null;
  /** The entries' total weight, with `weigh`. */
  #weighed = 0;

  /** `onEvict` hears of every entry the bound drops (not of `delete` or `clear`). */
  constructor(capacity: number, onEvict?: (key: K, value: V) => void, weigh?: (value: V) => number) {
    this.#capacity = capacity;
    this.#keepWhenFull = capacity - Math.floor(capacity / 16);
    this.#onEvict = onEvict;
    this.#weigh = weigh ?? null;
  }

  get(key: K): V | undefined {
    return this.#entries.get(key);
  }

  /** The entry, now the most recently used. */
  use(key: K): V | undefined {
    const value = this.#entries.get(key);
    if (value !== undefined) {
      this.#entries.delete(key);
      this.#entries.set(key, value);
    }
    return value;
  }

  set(key: K, value: V): void {
    if (this.#capacity <= 0) return;
    this.delete(key);
    this.#entries.set(key, value);
    if (this.#weigh) this.#weighed += this.#weigh(value);
    if (this.weight > this.#capacity) this.#dropOldest();
  }

  delete(key: K): void {
    if (this.#weigh) {
      const value = this.#entries.get(key);
      if (value === undefined && !this.#entries.has(key)) return;
      this.#weighed -= this.#weigh(value as V);
    }
    this.#entries.delete(key);
  }

  clear(): void {
    this.#entries.clear();
    this.#weighed = 0;
  }

  get size(): number {
    return this.#entries.size;
  }

  /** The entries' total weight: their number without `weigh`. */
  get weight(): number {
    return this.#weigh ? this.#weighed : this.#entries.size;
  }

  /**
   * Drops the oldest entries until the rest weigh at most #keepWhenFull, in one walk. The newest, just set, stays
   * unless it alone weighs more than the capacity.
   */
  #dropOldest(): void {
    const oldestFirst = this.#entries.entries();
    while (this.weight > this.#keepWhenFull && this.#entries.size > 1) this.#evict(oldestFirst.next().value as [K, V]);
    if (this.weight > this.#capacity) this.#evict(oldestFirst.next().value as [K, V]);
  }

  #evict([key, value]: [K, V]): void {
    this.#entries.delete(key);
    if (this.#weigh) this.#weighed -= this.#weigh(value);
    this.#onEvict?.(key, value);
  }
}
