/** Where the server gets the time: injected everywhere so tests and simulations can move it. */
export interface Clock {
  now(): Date;
}

/** The real wall clock. */
export const systemClock: Clock = { now: () => new Date() };

/** A clock tests can set and advance. */
export class ManualClock implements Clock {
  #now: number;

  constructor(start: Date | string) {
    this.#now = new Date(start).getTime();
  }

  now(): Date {
    return new Date(this.#now);
  }

  set(to: Date | string): void {
    this.#now = new Date(to).getTime();
  }

  advance(ms: number): void {
    this.#now += ms;
  }
}
