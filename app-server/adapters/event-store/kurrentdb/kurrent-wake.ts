import { END, excludeSystemEvents, type KurrentDBClient } from '@kurrent/kurrentdb-client';

/**
 * Wakes subscribers when KurrentDB commits an event: one live $all subscription (from the end, no system events)
 * shared by every listener; it carries no data we use, the checkpointed reader does the reading.
 */
export class KurrentWake {
  readonly #client: KurrentDBClient;
  readonly #listeners = new Set<() => void>();
  #subscription: { unsubscribe(): Promise<void> } | null = null;

  constructor(client: KurrentDBClient) {
    this.#client = client;
  }

  /** Registers a listener; ready at once (the live subscription starts from the end). */
  add(listener: () => void): { ready: Promise<void>; remove: () => void } {
    this.#listeners.add(listener);
    if (!this.#subscription) {
      const subscription = this.#client.subscribeToAll({ fromPosition: END, filter: excludeSystemEvents() });
      subscription.on('data', () => {
        for (const each of [...this.#listeners]) each();
      });
      // A dropped subscription only costs latency: subscribers still wake on their safety timeout.
      subscription.on('error', () => {});
      this.#subscription = subscription;
    }
    return {
      ready: Promise.resolve(),
      remove: () => {
        this.#listeners.delete(listener);
        if (this.#listeners.size === 0) void this.stop();
      },
    };
  }

  /** Ends the live subscription. */
  async stop(): Promise<void> {
    const subscription = this.#subscription;
    this.#subscription = null;
    await subscription?.unsubscribe().catch(() => {});
  }
}
