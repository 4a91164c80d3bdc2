import type { Transaction } from 'kysely';
import { type EventStore, StreamOrderConflictError, type Upcaster } from '../../../../domain/shared/event-store.ts';
import type { Database } from '../../../db/database.ts';
import { createUpcast } from '../upcasting.ts';
import { appendEvents } from './append-events.ts';
import { CommitNotifier } from './commit-notifier.ts';
import { appendManyEvents } from './append-many.ts';
import { readAllRows, readAllToHeadRows, readHeadPosition, readStreamRows, readStreamsRows } from './read-events.ts';
import { ListenFanOut } from './listen-fan-out.ts';

/** The transaction type of the PostgreSQL store: callers append in it, the engine's processors write through it. */
export type PostgresEventStoreTx = Transaction<object>;

export interface PostgresEventStoreOptions {
  readonly upcasters?: readonly Upcaster[];
  /** LISTEN/NOTIFY channel that announces appends (onAppended); defaults to 'es_appended'. */
  readonly notifyChannel?: string;
  /**
   * Where NOTIFY is sent for appends outside a caller's transaction: 'after-commit' (default on PostgreSQL; see
   * CommitNotifier for why) or 'in-transaction' (inside es_append; default on PGlite, which is one session).
   */
  readonly notifyMode?: 'after-commit' | 'in-transaction';
}

/**
 * An event store on PostgreSQL or PGlite, written once with kysely. Needs the event-store migrations applied.
 *
 * @example
 * const store = createPostgresEventStore(await openDatabase({ dataDir: 'memory' }));
 * await store.appendToStream('goal-1', [event], { expectedVersion: 'no_stream' });
 */
export function createPostgresEventStore(
  database: Database,
  options: PostgresEventStoreOptions = {},
): EventStore<PostgresEventStoreTx> {
  const { db } = database;
  const channel = options.notifyChannel ?? 'es_appended';
  const upcast = createUpcast(options.upcasters);
  const wake = new ListenFanOut(database, channel);
  const afterCommit =
    (options.notifyMode ?? (database.kind === 'postgres' ? 'after-commit' : 'in-transaction')) === 'after-commit';
  const notifier = afterCommit ? new CommitNotifier(db, channel) : null;
  return {
    async appendToStream(streamId, events, appendOptions = {}) {
      const expected = appendOptions.expectedVersion ?? 'any';
      const tx = appendOptions.transaction;
      // Inside a caller's transaction only PostgreSQL knows when it commits, so the NOTIFY must ride along.
      if (tx || !notifier) return appendEvents(tx ?? db, streamId, events, expected, channel);
      const result = await appendEvents(db, streamId, events, expected, null);
      notifier.notify();
      return result;
    },
    async appendToStreams(appends, appendOptions = {}) {
      const tx = appendOptions.transaction;
      if (tx || !notifier) return appendManyEvents(tx ?? db, appends, channel);
      // The statement is its own transaction: a stream written meanwhile by a newer one refuses it (the log's
      // order, append-function.ts) with nothing written, and running it again gives it a newer transaction id.
      for (let attempt = 1; ; attempt++) {
        try {
          const results = await appendManyEvents(db, appends, null);
          notifier.notify();
          return results;
        } catch (error) {
          if (!(error instanceof StreamOrderConflictError) || attempt >= 5) throw error;
        }
      }
    },
    readStreams: async (streamIds, readOptions = {}) =>
      readStreamsRows(readOptions.transaction ?? db, streamIds, upcast, readOptions.fromRevisions),
    readStream: (streamId, readOptions = {}) =>
      readStreamRows(readOptions.transaction ?? db, streamId, readOptions, upcast),
    // A rebuild's final catch-up reads inside its own transaction (on PGlite another connection would wait for it).
    readAll: (readOptions = {}) => readAllRows(readOptions.transaction ?? db, readOptions, upcast),
    readAllToHead: (readOptions = {}) => readAllToHeadRows(readOptions.transaction ?? db, readOptions, upcast),
    headPosition: (options) => readHeadPosition(db, options),
    onAppended(listener) {
      const { ready, remove } = wake.add(listener);
      return { ready: ready.catch(() => {}), remove };
    },
    async close() {
      await notifier?.flush();
      await wake.stop();
    },
  };
}
