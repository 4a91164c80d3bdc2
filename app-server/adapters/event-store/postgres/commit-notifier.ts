import { type Kysely, sql } from 'kysely';

/**
 * Sends NOTIFY after appends have committed, coalescing a burst into one notification per round trip.
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

  constructor(db: Kysely<object>, channel: string) {
    this.#db = db;
    this.#channel = channel;
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
    await sql`select set_config('synchronous_commit', 'off', true), pg_notify(${this.#channel}, '')`
      .execute(this.#db)
      .catch(() => {});
  }
}
