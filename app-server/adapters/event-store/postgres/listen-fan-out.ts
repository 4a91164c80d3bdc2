import type { Database } from '../../../db/database.ts';

/**
 * One LISTEN per store, fanned out to every subscription and onAppended listener. Listening starts with the first
 * listener and stops with the last, so a store that nobody follows holds no extra connection. A LISTEN connection
 * that is lost is re-established by the database layer, and every listener is woken then (catch-up).
 */
export class ListenFanOut {
  readonly #database: Database;
  readonly #channel: string;
  readonly #listeners = new Set<() => void>();
  #unlisten: Promise<() => Promise<void>> | null = null;

  constructor(database: Database, channel: string) {
    this.#database = database;
    this.#channel = channel;
  }

  /** Registers a listener; the promise resolves once notifications are flowing (so no append is missed). */
  add(listener: () => void): { ready: Promise<void>; remove: () => void } {
    this.#listeners.add(listener);
    const wakeAll = () => {
      for (const each of [...this.#listeners]) each();
    };
    // After a lost LISTEN connection is back, appends made meanwhile sent notifications nobody heard: wake everyone
    // to read the log now rather than at their fallback timeout.
    this.#unlisten ??= this.#database.listen(this.#channel, wakeAll, { onReconnect: wakeAll });
    const ready = this.#unlisten.then(() => {});
    // A failed LISTEN must not leave an unhandled rejection; subscribers still wake on their safety timeout.
    ready.catch(() => {});
    return {
      ready,
      remove: () => {
        this.#listeners.delete(listener);
        if (this.#listeners.size === 0) void this.stop();
      },
    };
  }

  /** Stops listening (close). */
  async stop(): Promise<void> {
    const unlisten = this.#unlisten;
    this.#unlisten = null;
    if (unlisten) await (await unlisten.catch(() => async () => {}))();
  }
}
