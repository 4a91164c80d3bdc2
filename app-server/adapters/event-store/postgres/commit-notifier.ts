import { type Kysely, sql } from 'kysely';

/**
 * Sends NOTIFY after appends have committed: the first append of a quiet spell notifies at once, a burst gets one
 * trailing notification per interval (measured: a NOTIFY per append halved single-writer append throughput).
 * PostgreSQL takes a cluster-wide lock from a NOTIFYing transaction's pre-commit until its end (WAL flush
 * included), so NOTIFY inside every append would serialise all writers' commits and defeat group commit.
 * Here the notifying statement is its own tiny transaction with synchronous_commit off: it holds that lock for
 * microseconds, and a lost notification only delays subscribers until their safety timeout.
 */
export class CommitNotifier {
  readonly #db: Kysely<object>;
  readonly #channel: string;
  #inFlight: Promise<void> | null = null;
  #pending = false;

  readonly #intervalMs: number;

  constructor(db: Kysely<object>, channel: string, intervalMs = 10) {
    this.#db = db;
    this.#channel = channel;
    this.#intervalMs = intervalMs;
  }

  /** Schedules a notification for appends that have committed; never throws, never waits. */
  notify(): void {
    if (this.#inFlight) {
      this.#pending = true;
      return;
    }
    this.#inFlight = this.#send().finally(() => {
      this.#inFlight = null;
      if (this.#pending) {
        this.#pending = false;
        this.notify();
      }
    });
  }

  /** Waits for the notification in flight (close). */
  async flush(): Promise<void> {
    while (this.#inFlight) await this.#inFlight;
  }

  async #send(): Promise<void> {
    const sent = sql`select set_config('synchronous_commit', 'off', true), pg_notify(${this.#channel}, '')`
      .execute(this.#db)
      .catch(() => {});
    // Holding the in-flight slot for the interval is what coalesces the appends that commit meanwhile.
    await Promise.all([sent, new Promise((resolve) => setTimeout(resolve, this.#intervalMs))]);
  }
}
