/**
 * A one-shot-at-a-time wake-up: `wait(ms)` resolves on the next `wake()` or after `ms`, whichever comes first.
 * A wake that arrives while nobody waits is remembered, so an append committed between "read nothing" and
 * "start waiting" is never slept through.
 */
export class WakeSignal {
  #pending = false;
  #resolve: (() => void) | null = null;

  wake(): void {
    if (this.#resolve) {
      const resolve = this.#resolve;
      this.#resolve = null;
      resolve();
    } else {
      this.#pending = true;
    }
  }

  /** Resolves true when woken, false when `ms` passed first. */
  wait(ms: number): Promise<boolean> {
    if (this.#pending) {
      this.#pending = false;
      return Promise.resolve(true);
    }
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.#resolve = null;
        resolve(false);
      }, ms);
      this.#resolve = () => {
        clearTimeout(timer);
        resolve(true);
      };
    });
  }
}

/** Like WakeSignal but for any number of waiters: `wake()` releases every current waiter. */
export class Broadcast {
  readonly #waiters = new Set<() => void>();

  wake(): void {
    const waiters = [...this.#waiters];
    this.#waiters.clear();
    for (const resolve of waiters) resolve();
  }

  wait(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.#waiters.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.#waiters.add(done);
    });
  }
}
