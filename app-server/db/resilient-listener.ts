import type pg from 'pg';

/** What /health reports about one LISTEN connection. */
export interface ListenStatus {
  readonly channel: string;
  /** True while the LISTEN is in place; false from the moment the connection drops until it is back. */
  readonly connected: boolean;
  /** How many times the connection was re-established after a loss. */
  readonly reconnects: number;
}

export interface ResilientListenerOptions {
  readonly channel: string;
  /** A new, unconnected client for each attempt (a pg.Client cannot be reconnected once it ended). */
  readonly newClient: () => pg.Client;
  readonly onNotify: (payload: string) => void;
  /**
   * Called after a lost connection is back and listening again. Notifications sent meanwhile are gone for good, so
   * the owner catches up here (re-reads what it follows) instead of waiting for its next fallback poll.
   */
  readonly onReconnect?: () => void;
  /** Every connection failure, for the logs (a listener never throws them at anyone). */
  readonly onError?: (error: unknown) => void;
  readonly firstRetryMs?: number;
  readonly maxRetryMs?: number;
}

/**
 * A LISTEN that outlives its connection. node-postgres ends a client for good when the server terminates its
 * session (57P01 from pg_terminate_backend, a restart, a failover) or the network drops it, and emits 'error' on it,
 * which kills the process if nobody listens. This listener handles 'error' and 'end', connects a new client with
 * growing delays (100 ms, doubling, at most 5 s) until LISTEN succeeds again, then calls onReconnect so the owner
 * can catch up on what it missed.
 */
export class ResilientListener {
  readonly #options: ResilientListenerOptions;
  #client: pg.Client | null = null;
  #connected = false;
  #stopped = false;
  #everListened = false;
  #failures = 0;
  #reconnects = 0;
  #retryTimer: NodeJS.Timeout | null = null;
  #firstListen: { resolve: () => void; promise: Promise<void> };

  constructor(options: ResilientListenerOptions) {
    this.#options = options;
    let resolve = () => {};
    const promise = new Promise<void>((r) => (resolve = r));
    this.#firstListen = { resolve, promise };
  }

  /** Connects and listens; resolves once the first LISTEN is in place (retrying until it is, or until stop). */
  start(): Promise<void> {
    void this.#attempt();
    return this.#firstListen.promise;
  }

  get status(): ListenStatus {
    return { channel: this.#options.channel, connected: this.#connected, reconnects: this.#reconnects };
  }

  /**
   * Resolves once every notification committed before this call has been handed to onNotify; rejects while the
   * connection is down (notifications may be getting lost). A round trip on the LISTEN connection itself: PostgreSQL
   * signals every listener of the database when a NOTIFY commits, and a backend sends the notifications it was
   * signalled about before the ReadyForQuery that ends a statement (postgres.c, "ensure stable behavior"); node-postgres
   * emits 'notification' as it parses them, before the statement's promise resolves.
   */
  async sync(): Promise<void> {
    await this.syncRead('SELECT 1');
  }

  /**
   * sync(), answering `text` (a statement without parameters) from the same round trip: what a request must read
   * fresh anyway (the session epoch) proves the barrier too, one statement instead of two.
   */
  async syncRead<Row>(text: string): Promise<Row[]> {
    const client = this.#client;
    if (!this.#connected || client === null) throw new Error(`Not listening on ${this.#options.channel}`);
    return (await client.query(text)).rows as Row[];
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    if (this.#retryTimer) clearTimeout(this.#retryTimer);
    this.#connected = false;
    this.#firstListen.resolve();
    const client = this.#client;
    this.#client = null;
    await client?.end().catch(() => {});
  }

  async #attempt(): Promise<void> {
    if (this.#stopped) return;
    let client: pg.Client;
    try {
      client = this.#options.newClient();
    } catch (error) {
      this.#options.onError?.(error);
      this.#retryLater();
      return;
    }
    this.#client = client;
    let lost = false;
    const onLost = (error?: unknown) => {
      if (lost) return;
      lost = true;
      this.#connected = false;
      if (error !== undefined) this.#options.onError?.(error);
      client.end().catch(() => {});
      this.#retryLater();
    };
    client.on('error', onLost);
    client.on('end', () => onLost());
    client.on('notification', (message) => {
      if (message.channel === this.#options.channel) this.#options.onNotify(message.payload ?? '');
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${quoteIdentifier(this.#options.channel)}`);
    } catch (error) {
      onLost(error);
      return;
    }
    if (lost || this.#stopped) return;
    this.#connected = true;
    this.#failures = 0;
    if (this.#everListened) {
      this.#reconnects++;
      this.#options.onReconnect?.();
    }
    this.#everListened = true;
    this.#firstListen.resolve();
  }

  #retryLater(): void {
    if (this.#stopped || this.#retryTimer) return;
    const first = this.#options.firstRetryMs ?? 100;
    const delay = Math.min(this.#options.maxRetryMs ?? 5_000, first * 2 ** Math.min(this.#failures, 16));
    this.#failures++;
    this.#retryTimer = setTimeout(() => {
      this.#retryTimer = null;
      void this.#attempt();
    }, delay);
    // A process that is otherwise done (a CLI) must not stay alive only to reconnect a listener.
    this.#retryTimer.unref();
  }
}

function quoteIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}
