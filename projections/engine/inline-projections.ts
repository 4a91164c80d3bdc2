import { type Kysely, sql, type Transaction } from 'kysely';
import {
  type AppendResult,
  type EventStore,
  type NewEvent,
  type RecordedEvent,
  withAppends,
} from '../../domain/shared/event-store.ts';
import { ChangeAnnouncements } from '../change-announcements.ts';
import { handles } from './processor.ts';
import { liveTableNames, type Projector } from './projector.ts';

type Tx = Transaction<object>;

/*
 * Inline projections (Marten's term): the read models a write's own answer reads (a runner's runs, their goal's
 * progress) are applied in the append's transaction, so the route answers from rows that committed with its events
 * and never waits for a worker. One mechanism, at the store: the composition root (app-server/runtime.ts) hands every
 * path that appends (a route, a process manager, Strava sync) this decorated store. The engine only moves these
 * projectors' checkpoints; a rebuild replays them like any other, then swaps under the lock's exclusive form.
 */

/**
 * Every inline projector takes this lock's shared form in each append it applies, before the events are written, and
 * a rebuild takes its exclusive form for its final catch-up and swap: an append is then either wholly before the
 * swap (committed, so in the log the catch-up reads) or wholly after it (applied to the swapped-in tables), never
 * applied to tables that are about to be dropped. On PGlite (one session, transactions serialised) it is moot.
 */
async function lockInlineProjections(tx: Tx, projectors: readonly Projector[], mode: 'shared' | 'exclusive') {
  const lock = mode === 'shared' ? sql`pg_advisory_xact_lock_shared` : sql`pg_advisory_xact_lock`;
  // Sorted, so two transactions taking several never wait for each other in a cycle, in one statement that also
  // answers this transaction's id: the commit position the store records for what it appends (a repeat's differs).
  const { rows } = await sql<{ xid: string }>`
    SELECT pg_current_xact_id()::text AS xid,
      (SELECT count(*) FROM (
        SELECT ${lock}(hashtextextended('inline-projection:' || s.name, 0))
        FROM (SELECT name FROM unnest(${projectors.map((p) => p.name).sort()}::text[]) AS name ORDER BY name) AS s
      ) AS locks) AS locks`.execute(tx);
  return Number(rows[0]!.xid);
}

/**
 * Runs a rebuild's swap of `projector` in a transaction, an inline one's under the exclusive lock. Appends committed
 * before are in the log, but the catch-up reads it only up to the oldest open transaction: the swap first waits for
 * the older ones to end. One may itself wait for the lock (it appends a run after other writes): after QUIET_WAIT_MS
 * the swap ends its transaction, letting it go, and tries again.
 */
export async function inSwapTransaction<T>(db: Kysely<object>, projector: Projector, swap: (tx: Tx) => Promise<T>) {
  if (!projector.inline) return db.transaction().execute(swap);
  for (let attempt = 1; attempt <= QUIET_ATTEMPTS; attempt++) {
    const swapped = await db.transaction().execute(async (tx) => {
      await lockInlineProjections(tx, [projector], 'exclusive');
      return (await olderTransactionsEnded(tx, QUIET_WAIT_MS)) ? { result: await swap(tx) } : null;
    });
    if (swapped) return swapped.result;
  }
  const name = projector.name;
  throw new Error(`Rebuild of ${name}: transactions older than the swap did not end; try again when writes are fewer`);
}

/** How long an inline projector's swap waits for the transactions older than it to end, and how many times. */
const QUIET_WAIT_MS = 2_000;
const QUIET_ATTEMPTS = 5;

/**
 * Waits (at most `timeoutMs`) until no transaction older than `tx` is still open, by the event store's own horizon
 * (`es_visible_horizon()`, app-server/adapters/event-store/postgres/visible-horizon.ts: other databases' transactions
 * do not count); each poll sees a fresh snapshot (READ COMMITTED). `>=`: where the snapshot lists `tx` itself as in
 * progress (PGlite's single session), the horizon is its own id.
 */
async function olderTransactionsEnded(tx: Tx, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { rows } = await sql<{ ended: boolean }>`
      SELECT es_visible_horizon() >= pg_current_xact_id()::text::bigint AS ended`.execute(tx);
    if (rows[0]?.ended) return true;
    if (Date.now() >= deadline) return false;
    await sql`SELECT pg_sleep(0.02)`.execute(tx);
  }
}

/**
 * Wraps `store` so every append carrying an event type one of `projectors` (those marked `inline`) handles also
 * applies it to the live read model, in the append's transaction: the caller's, or one opened here. A refused
 * projection refuses the append (nothing is saved), as an inline projection's failure does in Marten.
 */
export function withInlineProjections(
  store: EventStore<Tx>,
  db: Kysely<object>,
  projectors: readonly Projector[],
): EventStore<Tx> {
  const inline = projectors.filter((p) => p.inline);
  const listsAll = inline.find((p) => p.eventTypes === 'all');
  if (listsAll) throw new Error(`Inline projection ${listsAll.name} must list its eventTypes`);
  /**
   * Appends in the caller's transaction or one opened here, under the shared locks, then applies the due projectors
   * and sends their announcements (heard once the transaction commits).
   */
  const appending = async <R extends AppendResult>(
    appends: readonly { streamId: string; events: readonly NewEvent[] }[],
    transaction: Tx | undefined,
    append: (tx: Tx | undefined) => Promise<R[]>,
  ): Promise<R[]> => {
    const due = inline.filter((p) => appends.some((a) => a.events.some((e) => handles(p, e.type))));
    if (due.length === 0) return append(transaction);
    const work = async (tx: Tx) => {
      const xid = await lockInlineProjections(tx, due, 'shared');
      const results = await append(tx);
      // A repeat of an earlier append (the same event ids) is answered with the original result, which another
      // transaction wrote: it is not applied again.
      const recorded = appends.flatMap((a, i) =>
        results[i]!.position.commit === xid ? asRecorded(a.streamId, a.events, results[i]!) : [],
      );
      const announcements = new ChangeAnnouncements();
      const announce = announcements.add.bind(announcements);
      const heldUserLocks = new Set<string>();
      for (const projector of due) {
        const events = recorded.filter((e) => handles(projector, e.type));
        const context = { tx, tables: liveTableNames(projector), announce, heldUserLocks };
        if (events.length > 0) await projector.apply(events, context);
      }
      await announcements.notify(tx);
      return results;
    };
    return transaction ? work(transaction) : db.transaction().execute(work);
  };
  return withAppends(store, {
    async appendToStream(streamId, events, options = {}) {
      const append = async (transaction?: Tx) => [
        await store.appendToStream(streamId, events, { ...options, transaction }),
      ];
      return (await appending([{ streamId, events }], options.transaction, append))[0]!;
    },
    appendToStreams: (appends, options = {}) =>
      appending(appends, options.transaction, (transaction) => store.appendToStreams(appends, { transaction })),
  });
}

/**
 * The appended events as the projectors would read them from the log. Their data is what the caller appended (the
 * current schema version, before any sealing of personal fields: what a read through the store returns). Inline
 * projectors read data only, never positions, so every event carries the append's last position.
 */
function asRecorded(streamId: string, events: readonly NewEvent[], result: AppendResult): RecordedEvent[] {
  const recordedAt = new Date().toISOString();
  return events.map((event, i) => ({
    ...event,
    streamId,
    streamRevision: result.nextExpectedRevision - (events.length - 1 - i),
    position: result.position,
    globalPosition: result.globalPosition,
    recordedAt,
  }));
}
