import type { AppNotification } from './api/get-notifications.ts';

/** §9: notifications are polled every 30 s for rows delivered after the last check. */
export const NOTIFICATION_POLL_MS = 30_000;

/** How many notifications stay on screen at once; older ones make room. */
export const MAX_SHOWN = 3;

// Ids remembered to drop repeats; far more than a poll ever returns.
const SEEN_LIMIT = 200;

/**
 * The client's side of "delivered after the last check". Two notifications can share a delivery instant (one
 * delivered just after a check at that same millisecond), so the next check asks from one millisecond before the
 * newest instant seen, and ids already seen are dropped: nothing is missed and nothing shows twice.
 */
export class NotificationInbox {
  #newest: string | null;
  readonly #seen: string[] = [];

  /** Starts after the newest notifications there were when the app opened (any order): those were seen. */
  constructor(existing: readonly AppNotification[]) {
    this.#newest = null;
    this.receive(existing);
  }

  /** The `after` of the next check. */
  checkFrom(): string | null {
    return this.#newest === null ? null : new Date(Date.parse(this.#newest) - 1).toISOString();
  }

  /** Takes a check's answer; returns the notifications not seen before, oldest first. */
  receive(answer: readonly AppNotification[]): AppNotification[] {
    const fresh = answer.filter((n) => !this.#seen.includes(n.id));
    for (const n of fresh) {
      this.#seen.push(n.id);
      if (this.#newest === null || Date.parse(n.delivered_at) > Date.parse(this.#newest)) this.#newest = n.delivered_at;
    }
    this.#seen.splice(0, Math.max(0, this.#seen.length - SEEN_LIMIT));
    return fresh;
  }
}
