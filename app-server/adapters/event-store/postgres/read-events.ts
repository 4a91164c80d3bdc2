import { type Kysely, type RawBuilder, sql } from 'kysely';
import type {
  EventMetadata,
  LogPosition,
  ReadAllOptions,
  ReadStreamOptions,
  RecordedEvent,
} from '../../../../domain/shared/event-store.ts';
import type { UpcastFn } from '../upcasting.ts';

/** A stored event row as the read queries select it. */
interface EventRow {
  tx_id: number;
  global_position: number;
  stream_id: string;
  stream_revision: number;
  type: string;
  data: unknown;
  metadata: EventMetadata;
  recorded_at: string;
}

// Only transactions below the oldest one of this database still open are certain to be complete: a transaction
// that began earlier can still commit rows that sort before anything newer, so the log stops at that horizon
// (visible-horizon.ts). A scalar subquery, so the function runs once per statement, not once per row.
const visibleHorizon = sql`(select es_visible_horizon())`;
// recordedAt is an ISO instant with milliseconds (what Date#toISOString gives). Formatted by PostgreSQL: parsing the
// timestamptz into a Date (node-postgres, a regular expression per row) and formatting it back cost about 3 µs of the
// process's CPU per event, against 0.5 µs for the string as it comes; every read of the log or of a stream pays it.
// to_char's MS truncates the microseconds, as parsing into a Date did.
const recordedAt = sql`to_char(recorded_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as recorded_at`;
const columns = sql`tx_id, global_position, stream_id, stream_revision, type, data, metadata, ${recordedAt}`;

/** The columns of a log read, `data` without the fields the reader never looks at (removed by PostgreSQL). */
function logColumns(withoutFields: readonly string[] | undefined) {
  if (!withoutFields?.length) return columns;
  const data = withoutFields.reduce((expr, field) => sql`${expr} - ${field}::text`, sql`data`);
  return sql`tx_id, global_position, stream_id, stream_revision, type, ${data} as data, metadata, ${recordedAt}`;
}

/** Reads one stream by revision; the unique (stream_id, stream_revision) index serves both directions. */
export async function readStreamRows(
  db: Kysely<object>,
  streamId: string,
  options: ReadStreamOptions,
  upcast: UpcastFn | null,
): Promise<RecordedEvent[]> {
  const backwards = options.direction === 'backwards';
  const limit = options.maxCount ?? null;
  const from = options.fromRevision;
  const bound =
    from === undefined ? sql`` : backwards ? sql`and stream_revision <= ${from}` : sql`and stream_revision >= ${from}`;
  const order = backwards ? sql`desc` : sql`asc`;
  const { rows } = await sql<EventRow>`
    select ${columns} from es_events
    where stream_id = ${streamId} ${bound}
    order by stream_revision ${order}
    limit ${limit}`.execute(db);
  return toRecordedEvents(rows, upcast);
}

/** Reads the global log after a position, in (transaction id, sequence) order, up to the visible horizon. */
export async function readAllRows(
  db: Kysely<object>,
  options: ReadAllOptions,
  upcast: UpcastFn | null,
): Promise<RecordedEvent[]> {
  const { rows } = await sql<EventRow>`${logSelection(options, visibleHorizon)}`.execute(db);
  return toRecordedEvents(rows, upcast);
}

/** The select of a log read (readAll's options) up to `horizon`: one text for readAllRows and readAllToHeadRows. */
function logSelection(options: ReadAllOptions, horizon: RawBuilder<unknown>) {
  const after = options.after ?? { commit: 0, prepare: 0 };
  const types = options.eventTypes ? sql`and type = any(${[...options.eventTypes]}::text[])` : sql``;
  return sql`
    select ${logColumns(options.withoutFields)} from es_events
    where (tx_id, global_position) > (${after.commit}, ${after.prepare}) and tx_id < ${horizon} ${types}
    order by tx_id, global_position
    limit ${options.maxCount ?? null}`;
}

/**
 * readAllRows, and the newest position that same statement could see: one statement, so one snapshot and one horizon
 * for both (two statements may have two horizons, the later one lower: EventStore.readAllToHead). One row per event,
 * each carrying the head; no event: one row with the head alone.
 */
export async function readAllToHeadRows(
  db: Kysely<object>,
  options: ReadAllOptions,
  upcast: UpcastFn | null,
): Promise<{ events: RecordedEvent[]; head: LogPosition | null }> {
  const { rows } = await sql<Partial<EventRow> & { head_tx: number | null; head_position: number | null }>`
    with h as materialized (select es_visible_horizon() as horizon),
    newest as (
      select tx_id, global_position from es_events where tx_id < (select horizon from h)
      order by tx_id desc, global_position desc limit 1
    ),
    ev as (${logSelection(options, sql`(select horizon from h)`)})
    select newest.tx_id as head_tx, newest.global_position as head_position, ev.*
    from (select 1) as one left join newest on true left join ev on true
    order by ev.tx_id, ev.global_position`.execute(db);
  const first = rows[0];
  const head = first?.head_tx != null ? { commit: first.head_tx, prepare: first.head_position! } : null;
  const eventRows = rows.filter((row) => row.stream_id != null) as EventRow[];
  return { events: toRecordedEvents(eventRows, upcast), head };
}

/**
 * The newest position readAll can return now, or null when nothing is visible yet; with `committed`, the newest
 * committed one, which may still sit behind the horizon.
 */
export async function readHeadPosition(
  db: Kysely<object>,
  options: { readonly committed?: boolean } = {},
): Promise<LogPosition | null> {
  const visible = options.committed ? sql`` : sql`where tx_id < ${visibleHorizon}`;
  const { rows } = await sql<{ tx_id: number; global_position: number }>`
    select tx_id, global_position from es_events ${visible}
    order by tx_id desc, global_position desc limit 1`.execute(db);
  const row = rows[0];
  return row ? { commit: row.tx_id, prepare: row.global_position } : null;
}

/**
 * True when events after `after` are committed but still behind the horizon (an older transaction is open):
 * a wake-up that finds nothing visible must look again soon instead of waiting for the next append.
 */
export async function hasHiddenEvents(db: Kysely<object>, after: LogPosition): Promise<boolean> {
  // Asked of the newest event only: any event after `after` at or past the horizon means the newest one is too (it
  // sorts last), and the newest one is one step of a backward index scan. The direct form (`exists … where
  // position > after and tx_id >= horizon`) was planned as a scan of the whole log: 13 ms at 89k events, paid by
  // every process manager after every empty batch, and growing with the log.
  const { rows } = await sql<{ hidden: boolean }>`
    select exists (
      select 1 from (
        select tx_id, global_position from es_events order by tx_id desc, global_position desc limit 1
      ) newest
      where (newest.tx_id, newest.global_position) > (${after.commit}, ${after.prepare})
        and newest.tx_id >= ${visibleHorizon}
    ) as hidden`.execute(db);
  return rows[0]?.hidden === true;
}

function toRecordedEvents(rows: readonly EventRow[], upcast: UpcastFn | null): RecordedEvent[] {
  const events = new Array<RecordedEvent>(rows.length);
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i]!;
    let data = row.data;
    let metadata = row.metadata;
    if (upcast) ({ data, metadata } = upcast(row.type, data, metadata));
    events[i] = {
      type: row.type,
      data,
      metadata,
      streamId: row.stream_id,
      streamRevision: row.stream_revision,
      position: { commit: row.tx_id, prepare: row.global_position },
      globalPosition: row.global_position,
      recordedAt: row.recorded_at,
    };
  }
  return events;
}

/**
 * Reads several streams in one query, each whole or from its revision in `fromRevisions`; every id asked for is a key
 * of the answer (absent streams: []).
 */
export async function readStreamsRows(
  db: Kysely<object>,
  streamIds: readonly string[],
  upcast: UpcastFn | null,
  fromRevisions?: ReadonlyMap<string, number>,
): Promise<Map<string, RecordedEvent[]>> {
  const byStream = new Map<string, RecordedEvent[]>(streamIds.map((id) => [id, []]));
  if (streamIds.length === 0) return byStream;
  const ids = [...new Set(streamIds)];
  const { rows } = await streamsStatement(ids, fromRevisions).execute(db);
  for (const event of toRecordedEvents(rows, upcast)) byStream.get(event.streamId)!.push(event);
  return byStream;
}

/**
 * The statement reading `ids`, each whole or from its revision in `fromRevisions`, in stream then revision order.
 * `stream_id = any(…)` beside the join is what makes the second form a probe of the stream index per id: joined to
 * the unnest alone, PostgreSQL guessed (no statistics yet, as on a fresh clone) a merge join over the whole index,
 * 1.8 s for 500 streams of an 830k-event log against 17 ms (tests/contract/read-streams-plan.test.ts).
 */
export function streamsStatement(
  ids: readonly string[],
  fromRevisions?: ReadonlyMap<string, number>,
): RawBuilder<EventRow> {
  if (!fromRevisions?.size) {
    return sql<EventRow>`
      select ${columns} from es_events
      where stream_id = any(${ids}::text[])
      order by stream_id, stream_revision`;
  }
  return sql<EventRow>`
    select ${columns} from es_events
    join unnest(${ids}::text[], ${ids.map((id) => fromRevisions.get(id) ?? 0)}::bigint[]) as f(id, from_revision)
      on stream_id = f.id
    where stream_id = any(${ids}::text[]) and stream_revision >= f.from_revision
    order by stream_id, stream_revision`;
}
