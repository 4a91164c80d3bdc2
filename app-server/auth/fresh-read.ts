import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * The order of reads and requests: every mark taken and every read begun gets the next number, so "this read began
 * after that request arrived" is a comparison of two numbers, exact where two clock readings could tie.
 */
let order = 0;

/** A point in that order: a read begun after this call has a greater number. */
export function freshnessMark(): number {
  return ++order;
}

/** Each request's mark, taken as it arrived (`markRequests`). */
const requestScope = new AsyncLocalStorage<number>();

/**
 * Runs `handle` with its request's arrival marked: every FreshRead asked within it may answer with any read begun after
 * that mark (the first middleware: app.ts). A request then makes one round trip for all it must read fresh, however
 * many parts ask (the session check, then each cached read's barrier).
 */
export function markRequests<T>(handle: () => T): T {
  return requestScope.run(freshnessMark(), handle);
}

/** The current request's arrival mark, or now outside a request. */
export function requestMark(): number {
  return requestScope.getStore() ?? freshnessMark();
}

/**
 * A value read from the database, shared by concurrent callers, but never older than the call: `get()` answers with
 * a read that began after `get()` was called, `since(mark)` with one that began after `mark`. A caller arriving while
 * a read is in flight that began before its mark cannot use it (it may have taken its snapshot before something the
 * caller already knows about committed), so it waits for the next read, which starts as soon as the one in flight ends
 * and serves everyone who arrived in the meantime. At most one read is in flight and one waiting, whatever the number
 * of callers: under load, one query per round trip serves every request instead of one query per request. The last
 * read answered is kept for callers marked before it began (a request's second question after its first).
 *
 * @example
 * const epoch = new FreshRead(() => readEpoch(db));
 * const current = await epoch.get(); // read after this line began
 * const same = await epoch.since(requestMark()); // read after the request arrived: the same round trip, or a later one
 */
export class FreshRead<T> {
  readonly #read: () => Promise<T>;
  #inFlight: { readonly began: number; readonly value: Promise<T> } | null = null;
  #next: Promise<T> | null = null;
  #last: { readonly began: number; readonly value: T } | null = null;

  constructor(read: () => Promise<T>) {
    this.#read = read;
  }

  /** A value read after this call began (a failed read rejects every caller it serves). */
  get(): Promise<T> {
    return this.since(freshnessMark());
  }

  /** A value read after `mark` was taken (freshnessMark, requestMark). */
  since(mark: number): Promise<T> {
    if (this.#last !== null && this.#last.began > mark) return Promise.resolve(this.#last.value);
    const inFlight = this.#inFlight;
    if (inFlight === null) return this.#start();
    if (inFlight.began > mark) return inFlight.value;
    this.#next ??= inFlight.value.then(settled, settled).then(() => {
      this.#next = null;
      return this.#start();
    });
    return this.#next;
  }

  #start(): Promise<T> {
    const began = freshnessMark();
    const value: Promise<T> = this.#read().then((answer) => {
      if (this.#last === null || this.#last.began < began) this.#last = { began, value: answer };
      return answer;
    });
    const flight = { began, value };
    this.#inFlight = flight;
    void value.then(settled, settled).then(() => {
      if (this.#inFlight === flight) this.#inFlight = null;
    });
    return value;
  }
}

const settled = () => {};
