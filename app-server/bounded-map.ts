/**
 * A Map that holds at most `capacity` entries and drops the oldest when full (insertion order, as Map keeps it).
 * `set` makes an entry the newest; `use` reads it and makes it the newest too, for a least-recently-used bound,
 * where `get` leaves the order alone, for a first-in-first-out one. A capacity of 0 (or less) keeps nothing.
 * The one bound of every in-memory cache of the server: verified tokens, live sessions, cached reads, stream states,
 * the read cache's record of invalidations.
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

  /** `onEvict` hears of every entry the bound drops (not of `delete` or `clear`). */
  constructor(capacity: number, onEvict?: (key: K, value: V) => void) {
    this.#capacity = capacity;
    this.#keepWhenFull = capacity - Math.floor(capacity / 16);
    this.#onEvict = onEvict;
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
    this.#entries.delete(key);
    this.#entries.set(key, value);
    if (this.#entries.size > this.#capacity) this.#dropOldest();
  }

  delete(key: K): void {
    this.#entries.delete(key);
  }

  clear(): void {
    this.#entries.clear();
  }

  get size(): number {
    return this.#entries.size;
  }

  /** Drops the oldest entries down to #keepWhenFull, in one walk (the newest, just set, always stays). */
  #dropOldest(): void {
    const oldestFirst = this.#entries.entries();
    while (this.#entries.size > this.#keepWhenFull) {
      const [key, value] = oldestFirst.next().value as [K, V];
      this.#entries.delete(key);
      this.#onEvict?.(key, value);
    }
  }
}
