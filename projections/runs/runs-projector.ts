import { sqlRecords } from '../sql-records.ts';
import { sql } from 'kysely';
import type { RunEvent } from '../../domain/run/events.ts';
import type { RecordedEvent } from '../../domain/shared/event-store.ts';
import type { Projector } from '../engine/projector.ts';
import { countableRun } from '../../domain/run/count-once.ts';
import { lockUsersReadModels } from '../user-lock.ts';
import { createRunRecordsTable, refreshRunRecords } from './run-records.ts';

/**
 * The user's runs (§3 Run) for GET /runs, the run history, the heatmap and goal stats. One row per recorded run,
 * removed when the owner deletes it (the log keeps the evidence). It keeps no GPS track: a run's map is read from its
 * stream, where the fixes stay encrypted under the owner's key (app-server/http/routes/run-track.ts), so this
 * projector never reads them (the default `withoutFields`) and a run costs a row of figures, not its whole track.
 * Deterministic: every value comes from event data; a batch is folded in memory into at most three statements.
 */
export const runsProjector: Projector<'runs' | 'run_records'> = {
  name: 'runs',
  // 3: run policy version 2 — each run's claimed end (the API counts overlapping runs once); no per-run km columns.
  // 4: no positions column (the track is read from the log).
  // 5: an index of the runs synced from another service, by user (groupMembers sums their XP).
  // 6: each user's fastest runs over 5 and 10 km (run-records.ts), for the group challenges.
  // 7: inline (applied by the appends): rebuilt once, so events a worker had not applied before the switch are in.
  version: 7,
  tables: ['runs', 'run_records'],
  // Inline: POST /runs answers with the run from its own transaction (inline-projections.ts).
  inline: true,
  eventTypes: ['RunRecorded', 'RunNotesEdited', 'RunDeleted', 'PersonalDataErased'],

  async createTables(db, tables) {
    await sql`
      CREATE TABLE IF NOT EXISTS ${sql.table(tables.runs)} (
        id text PRIMARY KEY,
        user_id text NOT NULL,
        source text NOT NULL,
        import_id text,
        started_at timestamptz NOT NULL,
        ended_at timestamptz NOT NULL,
        distance_km double precision NOT NULL,
        duration_sec integer NOT NULL,
        notes text,
        verdict text NOT NULL,
        verification jsonb NOT NULL,
        recorded_at timestamptz NOT NULL
      )`.execute(db);
    await sql`
      CREATE INDEX IF NOT EXISTS ${sql.id(`${tables.runs}_user_started`)}
      ON ${sql.table(tables.runs)} (user_id, started_at DESC, id DESC)`.execute(db);
    // Few runs are synced (most are tracked with the app's GPS): this index finds a user's without reading the rest.
    await sql`
      CREATE INDEX IF NOT EXISTS ${sql.id(`${tables.runs}_user_synced`)}
      ON ${sql.table(tables.runs)} (user_id) WHERE source <> 'gps'`.execute(db);
    await createRunRecordsTable(db, tables.run_records);
  },

  async apply(events, { tx, tables, announce, replaying, heldUserLocks }) {
    const batch = foldRunBatch(events);
    const table = sql.table(tables.runs);
    // Applied inline, two appends of one runner can run at once: their records must not be worked out apart. Taken
    // before any write, as the goals projector does, so the two never wait for each other's rows in a cycle.
    if (!replaying) await lockUsersReadModels(tx, batch.recordsChanged, heldUserLocks);
    if (batch.inserts.length > 0) {
      await sql`
        INSERT INTO ${table} (id, user_id, source, import_id, started_at, ended_at, distance_km, duration_sec, notes,
                              verdict, verification, recorded_at)
        SELECT id, user_id, source, import_id, started_at, ended_at, distance_km, duration_sec, notes,
               verdict, verification, recorded_at
        FROM ${sqlRecords(batch.inserts, 'id text, user_id text, source text, import_id text, started_at timestamptz, ended_at timestamptz, distance_km double precision, duration_sec integer, notes text, verdict text, verification jsonb, recorded_at timestamptz')} AS r
        ON CONFLICT (id) DO NOTHING`.execute(tx);
    }
    if (batch.notes.length > 0) {
      const { rows } = await sql<{ user_id: string }>`
        UPDATE ${table} AS t SET notes = r.notes
        FROM ${sqlRecords(batch.notes, 'id text, notes text')} AS r
        WHERE t.id = r.id
        RETURNING t.user_id`.execute(tx);
      for (const row of rows) batch.users.add(row.user_id);
    }
    if (batch.deleted.length > 0) {
      await sql`DELETE FROM ${table} WHERE id = ANY(${batch.deleted}::text[])`.execute(tx);
    }
    if (batch.erasedUsers.length > 0) {
      // The account's personal data is gone from the log (its key is shredded): the read model follows, keeping the
      // facts (distance, time, verdict) the goals and stakes were settled on.
      await sql`UPDATE ${table} SET notes = NULL WHERE user_id = ANY(${batch.erasedUsers}::text[])`.execute(tx);
    }
    // A replay works the records out once, at its end (finishReplay): only the final runs decide them.
    if (batch.recordsChanged.size > 0 && !replaying) await refreshRunRecords(tx, tables, [...batch.recordsChanged]);
    for (const userId of batch.users) announce(userId, 'runs');
  },

  async finishReplay(db, tables) {
    await db.transaction().execute((tx) => refreshRunRecords(tx, tables, 'all'));
  },
};

interface RunBatch {
  readonly inserts: Record<string, unknown>[];
  readonly notes: { id: string; notes: string | null }[];
  readonly deleted: string[];
  readonly erasedUsers: string[];
  readonly users: Set<string>;
  /** Users who recorded or deleted a run: their fastest-run records may have changed. */
  readonly recordsChanged: Set<string>;
}

/**
 * Folds a batch: inserts first, then the last notes per run, then deletions. That order is the order of any one
 * run's stream (recorded → edited → deleted; a deleted run is never edited), so applying it gives the same rows as
 * applying event by event.
 */
function foldRunBatch(events: readonly RecordedEvent[]): RunBatch {
  const inserts = new Map<string, Record<string, unknown>>();
  const notes = new Map<string, string | null>();
  const deleted: string[] = [];
  const erasedUsers: string[] = [];
  const users = new Set<string>();
  const recordsChanged = new Set<string>();
  for (const recorded of events) {
    const event = recorded as unknown as RunEvent;
    switch (event.type) {
      case 'RunRecorded': {
        const d = event.data;
        users.add(d.userId);
        recordsChanged.add(d.userId);
        inserts.set(d.runId, {
          id: d.runId,
          user_id: d.userId,
          source: d.source,
          import_id: d.importId,
          started_at: d.startedAt,
          ended_at: new Date(countableRun(d, d.recordedAt).endedAtMs).toISOString(),
          distance_km: d.distanceKm,
          duration_sec: d.durationSec,
          notes: d.notes,
          verdict: d.verification.verdict,
          verification: d.verification,
          recorded_at: d.recordedAt,
        });
        break;
      }
      case 'RunNotesEdited': {
        const insert = inserts.get(event.data.runId);
        if (insert) insert.notes = event.data.notes;
        else notes.set(event.data.runId, event.data.notes);
        break;
      }
      case 'RunDeleted':
        users.add(event.data.userId);
        recordsChanged.add(event.data.userId);
        deleted.push(event.data.runId);
        break;
      default:
        if (recorded.type === 'PersonalDataErased') {
          const userId = (recorded.data as { userId: string }).userId;
          erasedUsers.push(userId);
          users.add(userId);
        }
        break;
    }
  }
  return {
    inserts: [...inserts.values()],
    notes: [...notes].map(([id, n]) => ({ id, notes: n })),
    deleted,
    erasedUsers,
    users,
    recordsChanged,
  };
}
