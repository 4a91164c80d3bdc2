/**
 * A Map that holds at most `capacity` entries and drops the oldest when full (insertion order, as Map keeps it).
 * `set` makes an entry the newest; `use` reads it and makes it the newest too, for a least-recently-used bound,
 * where `get` leaves the order alone, for a first-in-first-out one. A capacity of 0 (or less) keeps nothing.
 * The one bound of every in-memory cache of the server: verified tokens, live sessions, cached reads, stream states.
 */
export class BoundedMap<K, V> {
  readonly #entries = new Map<K, V>();
  readonly #capacity: number;

  constructor(capacity: number) {
    this.#capacity = capacity;
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
    while (this.#entries.size > this.#capacity) this.#entries.delete(this.#entries.keys().next().value as K);
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
}
