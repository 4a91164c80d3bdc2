import { type Kysely, sql, type Transaction } from 'kysely';
import type { EventStore } from '../../domain/shared/event-store.ts';
import { Engine } from '../../projections/engine/engine.ts';
import { RETRY_FOREVER } from '../../projections/engine/processor.ts';
import { fieldsLeftOut } from '../../projections/engine/projector.ts';
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
  /** The engine's linger after a short batch (EngineOptions.lingerMs). */
  readonly lingerMs?: number;
}

/**
 * Runs process managers: their event handlers as reactors on the engine (checkpoint `pm:<name>`, retried until they
 * succeed, never rebuilt), and their ticks on a timer. On PostgreSQL a tick runs only where it wins a session
 * advisory lock, so several workers never run the same tick at once (leader election per tick; a row lock would give
 * the tick a transaction id for its whole run, and hold back the log's read horizon with it); PGlite is one process,
 * so there is nothing to elect.
 */
export class ProcessManagerHost {
  readonly #options: ProcessManagerHostOptions;
  readonly #engine: Engine;
  #timer: NodeJS.Timeout | null = null;
  #ticking: Promise<void> | null = null;

  constructor(options: ProcessManagerHostOptions) {
    this.#options = options;
    const { database, store, clock, managers, onError, lingerMs } = options;
    const reactors = managers.flatMap((manager) => {
      const handle = manager.handle?.bind(manager);
      if (!handle || !manager.eventTypes) return [];
      return [
        {
          name: `pm:${manager.name}`,
          version: 1,
          eventTypes: manager.eventTypes,
          withoutFields: fieldsLeftOut(manager),
          failure: RETRY_FOREVER,
          // The engine's batches (1,000 events): a Monday's settlement reads and appends that many stakes per
          // statement (batches of 200 made a 10,000-goal settlement 9–17% slower, docs/PERFORMANCE.md).
          handle: (events: Parameters<typeof handle>[0], { tx }: { tx: Transaction<object> }) =>
            handle(events, { tx, store, now: clock.now() }),
          onError: (error: unknown) => onError?.(manager.name, error),
        },
      ];
    });
    this.#engine = new Engine({ db: database.db, store, processors: reactors, idleMs: 5_000, lingerMs });
  }

  /** The process managers hosted (tests hold every reactor to the same rules: tests/process/batch-statements.test.ts). */
  get managers(): readonly ProcessManager[] {
    return this.#options.managers;
  }

  /** Starts the reactors and the tick timer. */
  start(): void {
    this.#engine.start();
    this.#timer = setInterval(() => void this.tick(), this.#options.tickMs ?? 30_000);
    this.#timer.unref();
  }

  async stop(): Promise<void> {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
    await this.#engine.stop();
    await this.#ticking;
  }

  /** Waits until every event handler has processed the log up to now (tests and simulations). */
  async drain(): Promise<void> {
    await this.#engine.caughtUp();
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
