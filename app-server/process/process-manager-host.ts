import { type Kysely, type Transaction, sql } from 'kysely';
import type { EventStore, RecordedEvent, Subscription } from '../../domain/shared/event-store.ts';
import { fieldsLeftOut } from '../../projections/runner/projector.ts';
import type { Clock } from '../clock.ts';
import type { Database } from '../db/database.ts';
import type { ProcessManager } from './process-manager.ts';

export interface ProcessManagerHostOptions {
  readonly database: Database;
  readonly store: EventStore<Transaction<object>>;
  readonly clock: Clock;
  readonly managers: readonly ProcessManager[];
  /** How often ticks run; default every 30 s. */
  readonly tickMs?: number;
  readonly onError?: (manager: string, error: unknown) => void;
}

/**
 * Runs process managers: each one's event handler as a checkpointed subscription (`pm:<name>`), and its tick on a
 * timer. On PostgreSQL a tick runs only where it wins a transaction-scoped advisory lock, so several workers never
 * run the same tick at once (leader election per tick); PGlite is one process, so there is nothing to elect.
 */
export class ProcessManagerHost {
  readonly #options: ProcessManagerHostOptions;
  #subscriptions: Subscription[] = [];
  #timer: NodeJS.Timeout | null = null;
  #ticking: Promise<void> | null = null;

  constructor(options: ProcessManagerHostOptions) {
    this.#options = options;
    const names = new Set(options.managers.map((m) => m.name));
    if (names.size !== options.managers.length) throw new Error('Process manager names must be unique');
  }

  /** Starts every subscription and the tick timer. */
  start(): void {
    const { store, clock, managers, onError } = this.#options;
    // One subscription for all handlers: each keeps its own checkpoint (`pm:<name>`), but one read of the log and one
    // transaction per batch serve them all (grouped-subscription.ts), instead of seven loops each woken by every append.
    const subscribers = managers.flatMap((manager) => {
      const handle = manager.handle?.bind(manager);
      if (!handle) return [];
      return [
        {
          checkpointName: `pm:${manager.name}`,
          batchSize: 200,
          withoutFields: fieldsLeftOut(manager),
          handle: (events: readonly RecordedEvent[], tx: Transaction<object>) =>
            handle(events, { tx, store, now: clock.now() }),
          onError: (error: unknown) => onError?.(manager.name, error),
        },
      ];
    });
    if (subscribers.length > 0) this.#subscriptions.push(store.subscribeTogether(subscribers));
    this.#timer = setInterval(() => void this.tick(), this.#options.tickMs ?? 30_000);
    this.#timer.unref();
  }

  async stop(): Promise<void> {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
    await Promise.all(this.#subscriptions.map((s) => s.stop()));
    this.#subscriptions = [];
    await this.#ticking;
  }

  /** Waits until every event handler has processed the log up to now (tests and simulations). */
  async drain(): Promise<void> {
    await Promise.all(this.#subscriptions.map((s) => s.caughtUp()));
  }

  /** Runs every tick once, now; overlapping calls share the run in progress. */
  tick(): Promise<void> {
    this.#ticking ??= this.#tickAll().finally(() => {
      this.#ticking = null;
    });
    return this.#ticking;
  }

  async #tickAll(): Promise<void> {
    const { database, store, clock, managers, onError } = this.#options;
    for (const manager of managers) {
      if (!manager.tick) continue;
      try {
        await withTickLock(database, manager.name, () => manager.tick!({ db: database.db, store, now: clock.now() }));
      } catch (error) {
        onError?.(manager.name, error);
      }
    }
  }
}

/** Runs `work` only if this process holds the manager's advisory lock (PostgreSQL); always on PGlite. */
async function withTickLock(database: Database, name: string, work: () => Promise<void>): Promise<void> {
  if (database.kind === 'pglite') return work();
  const db: Kysely<object> = database.db;
  // A session-level lock on a dedicated connection: held while the tick runs, released even if it throws.
  await db.connection().execute(async (connection) => {
    const { rows } = await sql<{
      locked: boolean;
    }>`SELECT pg_try_advisory_lock(hashtext(${`pm-tick:${name}`})) AS locked`.execute(connection);
    if (!rows[0]?.locked) return;
    try {
      await work();
    } finally {
      await sql`SELECT pg_advisory_unlock(hashtext(${`pm-tick:${name}`}))`.execute(connection);
    }
  });
}
