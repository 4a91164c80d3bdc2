import type { Subscription } from '../../../domain/shared/event-store.ts';

/** The subscriptions a store has started and not stopped, so closing the store stops them (both adapters). */
export class OpenSubscriptions {
  readonly #open = new Set<Subscription>();

  /** Remembers `subscription` until it is stopped; returns the handle to give the caller. */
  track(subscription: Subscription): Subscription {
    const tracked: Subscription = {
      stop: async () => {
        this.#open.delete(tracked);
        await subscription.stop();
      },
      caughtUp: () => subscription.caughtUp(),
    };
    this.#open.add(tracked);
    return tracked;
  }

  async stopAll(): Promise<void> {
    await Promise.all([...this.#open].map((s) => s.stop()));
  }
}
