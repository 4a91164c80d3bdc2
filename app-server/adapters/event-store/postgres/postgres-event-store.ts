import type { Kysely, Transaction } from 'kysely';
import type { EventStore, LogPosition, Upcaster } from '../../../../domain/shared/event-store.ts';
import type { Database } from '../../../db/database.ts';
import { createUpcast } from '../upcasting.ts';
import { appendEvents } from './append-events.ts';
import { CommitNotifier } from './commit-notifier.ts';
import { hasHiddenEvents, readAllRows, readHeadPosition, readStreamRows } from './read-events.ts';
import { startSubscription } from '../checkpointed-subscription.ts';
import { startGroupedSubscription } from '../grouped-subscription.ts';
import { OpenSubscriptions } from '../open-subscriptions.ts';
import { ListenFanOut } from './listen-fan-out.ts';

/** The transaction type of the PostgreSQL store: callers append in it, subscription handlers write through it. */
export type PostgresEventStoreTx = Transaction<object>;

export interface PostgresEventStoreOptions {
  readonly upcasters?: readonly Upcaster[];
  /** LISTEN/NOTIFY channel that wakes subscribers; defaults to 'es_appended'. */
  readonly notifyChannel?: string;
  /** Longest a caught-up subscriber sleeps without a notification (a safety net, not a poll); default 5 s. */
  readonly wakeTimeoutMs?: number;
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
  const subscriptions = new OpenSubscriptions();
  const context = {
    db,
    readBatch: (tx: Kysely<object>, after: LogPosition, maxCount: number, withoutFields?: readonly string[]) =>
      readAllRows(tx, { after, maxCount, ...(withoutFields ? { withoutFields } : {}) }, upcast),
    headPosition: () => readHeadPosition(db),
    hasHiddenEvents: (after: LogPosition) => hasHiddenEvents(db, after),
    onWake: (listener: () => void) => wake.add(listener),
    wakeTimeoutMs: options.wakeTimeoutMs ?? 5000,
  };

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
    readStream: (streamId, readOptions = {}) =>
      readStreamRows(readOptions.transaction ?? db, streamId, readOptions, upcast),
    // A rebuild's final catch-up reads inside its own transaction (on PGlite another connection would wait for it).
    readAll: (readOptions = {}) => readAllRows(readOptions.transaction ?? db, readOptions, upcast),
    headPosition: () => readHeadPosition(db),
    subscribeToAll: (subscribeOptions) => subscriptions.track(startSubscription(context, subscribeOptions)),
    subscribeTogether: (subscribers) => subscriptions.track(startGroupedSubscription(context, subscribers)),
    onAppended(listener) {
      const { ready, remove } = wake.add(listener);
      return { ready: ready.catch(() => {}), remove };
    },
    async close() {
      await subscriptions.stopAll();
      await notifier?.flush();
      await wake.stop();
    },
  };
}
