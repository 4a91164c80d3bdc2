/**
 * A value read from the database, shared by concurrent callers, but never older than the call: `get()` answers with
 * a read that began after `get()` was called. A caller arriving while a read is in flight cannot use it (it may have
 * taken its snapshot before something the caller already knows about committed), so it waits for the next read,
 * which starts as soon as the one in flight ends and serves everyone who arrived in the meantime. At most one read is
 * in flight and one waiting, whatever the number of callers: under load, one query per round trip serves every
 * request instead of one query per request.
 *
 * @example
 * const epoch = new FreshRead(() => readEpoch(db));
 * const current = await epoch.get(); // read after this line began
 */
export class FreshRead<T> {
  readonly #read: () => Promise<T>;
  #inFlight: Promise<T> | null = null;
  #next: Promise<T> | null = null;

  constructor(read: () => Promise<T>) {
    this.#read = read;
  }

  /** A value read after this call began (a failed read rejects every caller it serves). */
  get(): Promise<T> {
    if (this.#inFlight === null) return this.#start();
    this.#next ??= this.#inFlight.then(settled, settled).then(() => {
      this.#next = null;
      return this.#start();
    });
    return this.#next;
  }

  #start(): Promise<T> {
    const read: Promise<T> = this.#read().finally(() => {
      if (this.#inFlight === read) this.#inFlight = null;
    });
    this.#inFlight = read;
    return read;
  }
}

const settled = () => {};
