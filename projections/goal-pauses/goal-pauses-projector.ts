import { type Kysely, sql, type Transaction } from 'kysely';
import type { UserGoalsEvent } from '../../domain/goal/user-goals.ts';
import type { RecordedEvent } from '../../domain/shared/event-store.ts';
import { weekStartingOn } from '../../domain/shared/week.ts';
import type { Projector, TableNames } from '../engine/projector.ts';

/** A paused week of a runner (issue 25): GET /goals/pauses, the goals screen, and the streak's aging (/me/streak). */
export type GoalPauseRow = {
  user_id: string;
  /** Monday, YYYY-MM-DD in `time_zone`. */
  week_start: string;
  time_zone: string;
  /** Null when the event was read after its owner's erasure (the reason is crypto-shredded); such rows go at once. */
  reason: 'injury' | 'travel' | 'other' | null;
  week_starts_at: Date;
  week_ends_at: Date;
  paused_at: Date;
};

/** Kysely view of the pauses read model under its live name. */
export type GoalPauseTables = { goal_pauses: GoalPauseRow };

async function createTables(db: Kysely<object> | Transaction<object>, t: TableNames<'goal_pauses'>) {
  await sql`
    CREATE TABLE IF NOT EXISTS ${sql.table(t.goal_pauses)} (
      user_id text NOT NULL,
      week_start text NOT NULL,
      time_zone text NOT NULL,
      reason text,
      week_starts_at timestamptz NOT NULL,
      week_ends_at timestamptz NOT NULL,
      paused_at timestamptz NOT NULL,
      PRIMARY KEY (user_id, week_start)
    )`.execute(db);
}

type PauseEvent = Extract<UserGoalsEvent, { type: 'WeekPaused' | 'WeekPauseCanceled' }>;

/** An erased account (domain/account): its pauses, and the reasons they carry, leave the read model. */
type ErasedEvent = { type: 'PersonalDataErased'; data: { userId: string } };

function pauseEvents(events: readonly RecordedEvent[]): (PauseEvent | ErasedEvent)[] {
  return events
    .filter((e) => e.type === 'WeekPaused' || e.type === 'WeekPauseCanceled' || e.type === 'PersonalDataErased')
    .map((e) => ({ type: e.type, data: e.data }) as PauseEvent | ErasedEvent);
}

/** The user's paused weeks; pauses are rare (a runner sets a few a year), one statement per event is fine. */
export const goalPausesProjector: Projector<'goal_pauses'> = {
  name: 'goal-pauses',
  version: 2,
  eventTypes: ['WeekPaused', 'WeekPauseCanceled', 'PersonalDataErased'],
  tables: ['goal_pauses'],
  createTables,
  async apply(events, { tx, tables, announce }) {
    for (const event of pauseEvents(events)) {
      if (event.type === 'PersonalDataErased') {
        await sql`DELETE FROM ${sql.table(tables.goal_pauses)} WHERE user_id = ${event.data.userId}`.execute(tx);
        // The paused weeks age a streak (a group's challenges cache it: read-cache.ts relies on the announcement).
        announce(event.data.userId, 'goals');
        announce(event.data.userId, 'streak');
        continue;
      }
      const d = event.data;
      if (event.type === 'WeekPaused') {
        const week = weekStartingOn(event.data.weekStart, event.data.timeZone);
        await sql`
          INSERT INTO ${sql.table(tables.goal_pauses)}
            (user_id, week_start, time_zone, reason, week_starts_at, week_ends_at, paused_at)
          VALUES (${d.userId}, ${d.weekStart}, ${event.data.timeZone}, ${event.data.reason},
            ${week.start.toString()}, ${week.end.toString()}, ${event.data.pausedAt})
          ON CONFLICT (user_id, week_start) DO NOTHING`.execute(tx);
      } else {
        await sql`DELETE FROM ${sql.table(tables.goal_pauses)}
          WHERE user_id = ${d.userId} AND week_start = ${d.weekStart}`.execute(tx);
      }
      announce(d.userId, 'goals');
      announce(d.userId, 'streak');
    }
  },
};
