import { sqlRecords } from '../sql-records.ts';
import { eventTypesOf } from '../../domain/shared/event-schema.ts';
import { sql, type Transaction } from 'kysely';
import { Temporal } from 'temporal-polyfill';
import { GoalEvent } from '../../domain/goal/events.ts';
import type { RunEvent } from '../../domain/run/events.ts';
import type { RecordedEvent } from '../../domain/shared/event-store.ts';
import { weekStartingOn } from '../../domain/shared/week.ts';
import type { Projector } from '../engine/projector.ts';
import { countableRun } from '../../domain/run/count-once.ts';
import { lockUsersReadModels } from '../user-lock.ts';
import { recomputeProgress } from './recompute-progress.ts';

/**
 * Goals (§3 Goal) with their live progress, for /goals, /goals/current, /goals/upcoming and the stats screen.
 *
 * Progress is computed here from the runs themselves (the goal stream records only completion and the close): a run
 * is visible in its goal's progress as soon as this projection has applied the run (read-your-writes through
 * `waitFor`), while the lifecycle process manager (which issues RecordProgress and so GoalCompleted) follows on its
 * own subscription.
 * Both use the same rule (domain/goal/progress.ts): runs that started inside the goal's week in the goal's locked
 * zone, counted by the run policy for a staked or a free goal, once among the runs they overlap or repeat. A
 * missed goal's progress, and a completed one's once its week is closed, is frozen at the figure it was settled
 * with; every other goal's progress is a function of the runs present, so the result never depends on where
 * batches were cut (a rebuild with other batch sizes yields identical rows).
 */
export const goalsProjector: Projector<'goals' | 'goal_run_facts'> = {
  name: 'goals',
  // 2: events of other modules that carry a goalId are ignored (v1 could merge them into the row).
  // 3: run policy version 2 — facts keep each run's claimed time and verdict; withdrawn completions; closed weeks.
  // 4: indexes that keep a batch's work flat as histories grow: a user's open goals, a user's runs by recording.
  // 5: inline (applied by the appends): rebuilt once, so events a worker had not applied before the switch are in.
  version: 5,
  eventTypes: [...eventTypesOf(GoalEvent), 'RunRecorded', 'RunDeleted'],
  tables: ['goals', 'goal_run_facts'],
  // Inline: a saved run answers with its goal's progress from its own transaction (inline-projections.ts).
  inline: true,

  async createTables(db, tables) {
    await sql`
      CREATE TABLE IF NOT EXISTS ${sql.table(tables.goals)} (
        id text PRIMARY KEY,
        user_id text NOT NULL,
        type text NOT NULL,
        target_value double precision NOT NULL,
        entered_value double precision NOT NULL,
        entered_unit text NOT NULL,
        stake_amount_cents integer NOT NULL,
        charity_id text,
        time_zone text NOT NULL,
        period_start text NOT NULL,
        period_end text NOT NULL,
        week_starts_at timestamptz NOT NULL,
        week_ends_at timestamptz NOT NULL,
        status text NOT NULL,
        progress double precision NOT NULL,
        frozen boolean NOT NULL,
        created_at timestamptz NOT NULL,
        activated_at timestamptz,
        completed_at timestamptz,
        completed_progress double precision,
        closed_at timestamptz,
        canceled_at timestamptz,
        stake_forfeited boolean NOT NULL,
        deleted_at timestamptz
      )`.execute(db);
    await sql`
      CREATE INDEX IF NOT EXISTS ${sql.id(`${tables.goals}_user_week`)}
      ON ${sql.table(tables.goals)} (user_id, week_starts_at DESC)`.execute(db);
    await sql`
      CREATE INDEX IF NOT EXISTS ${sql.id(`${tables.goals}_status_week`)}
      ON ${sql.table(tables.goals)} (status, week_starts_at)`.execute(db);
    await sql`
      CREATE TABLE IF NOT EXISTS ${sql.table(tables.goal_run_facts)} (
        run_id text PRIMARY KEY,
        user_id text NOT NULL,
        started_at timestamptz NOT NULL,
        ended_at timestamptz NOT NULL,
        recorded_at timestamptz NOT NULL,
        verification jsonb NOT NULL
      )`.execute(db);
    await sql`
      CREATE INDEX IF NOT EXISTS ${sql.id(`${tables.goal_run_facts}_user_started`)}
      ON ${sql.table(tables.goal_run_facts)} (user_id, started_at)`.execute(db);
    // Progress is recomputed for a batch's users' open goals (recompute-progress.ts): the settled weeks of their
    // history, which are most of their goals, are never read.
    await sql`
      CREATE INDEX IF NOT EXISTS ${sql.id(`${tables.goals}_user_open`)}
      ON ${sql.table(tables.goals)} (user_id) WHERE NOT frozen`.execute(db);
    // Repeats of a recording (runsAroundWeeks): the user's runs with the same track key, wherever they are in time.
    await sql`
      CREATE INDEX IF NOT EXISTS ${sql.id(`${tables.goal_run_facts}_user_track`)}
      ON ${sql.table(tables.goal_run_facts)} (user_id, (verification->>'trackKey'))`.execute(db);
    // Runs overlapping a week from before it (runsAroundWeeks): those ending after the week began, not every run
    // that started before its end.
    await sql`
      CREATE INDEX IF NOT EXISTS ${sql.id(`${tables.goal_run_facts}_user_ended`)}
      ON ${sql.table(tables.goal_run_facts)} (user_id, (COALESCE(ended_at, started_at)))`.execute(db);
  },

  async apply(events, { tx, tables, announce, replaying, heldUserLocks }) {
    const batch = foldGoalBatch(events);
    const goals = sql.table(tables.goals);
    const facts = sql.table(tables.goal_run_facts);
    const users = new Set(batch.users);
    if (!replaying) await lockOwners(tx, goals, batch, heldUserLocks);
    if (batch.facts.length > 0) {
      await sql`
        INSERT INTO ${facts} (run_id, user_id, started_at, ended_at, recorded_at, verification)
        SELECT * FROM ${sqlRecords(batch.facts, 'run_id text, user_id text, started_at timestamptz, ended_at timestamptz, recorded_at timestamptz, verification jsonb')} AS r
        ON CONFLICT (run_id) DO NOTHING`.execute(tx);
    }
    if (batch.deletedRuns.length > 0) {
      await sql`DELETE FROM ${facts} WHERE run_id = ANY(${batch.deletedRuns}::text[])`.execute(tx);
    }
    if (batch.created.size > 0) {
      await sql`
        INSERT INTO ${goals}
        SELECT * FROM jsonb_populate_recordset(NULL::${goals}, ${JSON.stringify([...batch.created.values()])}::jsonb)
        ON CONFLICT (id) DO NOTHING`.execute(tx);
    }
    if (batch.patches.size > 0) {
      const patches = [...batch.patches].map(([id, patch]) => ({ id, ...patch }));
      const { rows } = await sql<{ user_id: string }>`
        UPDATE ${goals} AS g SET
          status = COALESCE(p.status, g.status),
          activated_at = COALESCE(p.activated_at, g.activated_at),
          completed_at = CASE WHEN p.withdrawn THEN NULL ELSE COALESCE(p.completed_at, g.completed_at) END,
          completed_progress = CASE WHEN p.withdrawn THEN NULL
                                    ELSE COALESCE(p.completed_progress, g.completed_progress) END,
          closed_at = COALESCE(p.closed_at, g.closed_at),
          canceled_at = COALESCE(p.canceled_at, g.canceled_at),
          stake_forfeited = COALESCE(p.stake_forfeited, g.stake_forfeited),
          deleted_at = COALESCE(p.deleted_at, g.deleted_at),
          frozen = COALESCE(p.frozen, g.frozen),
          progress = COALESCE(p.progress, g.progress)
        FROM ${sqlRecords(patches, 'id text, status text, activated_at timestamptz, completed_at timestamptz, completed_progress double precision, withdrawn boolean, closed_at timestamptz, canceled_at timestamptz, stake_forfeited boolean, deleted_at timestamptz, frozen boolean, progress double precision')} AS p
        WHERE g.id = p.id
        RETURNING g.user_id`.execute(tx);
      for (const row of rows) users.add(row.user_id);
    }
    // A replay leaves progress to finishReplay: an unfrozen goal's progress is a function of the runs present, so
    // working it out after every batch of a rebuild (most of the rebuild's time) only to overwrite it changes nothing.
    if (users.size > 0 && !replaying) await recomputeProgress(tx, tables, [...users]);
    for (const userId of users) announce(userId, 'goals');
  },

  async finishReplay(db, tables) {
    const { rows } = await sql<{ user_id: string }>`
      SELECT DISTINCT user_id FROM ${sql.table(tables.goals)} WHERE NOT frozen ORDER BY user_id`.execute(db);
    const users = rows.map((r) => r.user_id);
    for (let i = 0; i < users.length; i += PROGRESS_USERS_PER_TRANSACTION) {
      const chunk = users.slice(i, i + PROGRESS_USERS_PER_TRANSACTION);
      await db.transaction().execute((tx) => recomputeProgress(tx, tables, chunk));
    }
  },
};

/**
 * Applied inline, a run and another run (or a new goal, a completion) of one runner can be appended at once: without
 * a lock each would recompute progress without the other's rows and the later commit would drop the other's share.
 * The owners (of the batch's runs and goals, and of the goals it patches) are locked before any write, so two
 * transactions never hold a row the other waits for while waiting for its lock.
 */
async function lockOwners(
  tx: Transaction<object>,
  goals: ReturnType<typeof sql.table>,
  batch: GoalBatch,
  held: Set<string> | undefined,
) {
  const owners = new Set(batch.users);
  if (batch.patches.size > 0) {
    const { rows } = await sql<{ user_id: string }>`
      SELECT user_id FROM ${goals} WHERE id = ANY(${[...batch.patches.keys()]}::text[])`.execute(tx);
    for (const row of rows) owners.add(row.user_id);
  }
  await lockUsersReadModels(tx, owners, held);
}

/** Users whose goals' progress one transaction of finishReplay works out. */
const PROGRESS_USERS_PER_TRANSACTION = 500;

/** A change to an existing goal row; absent fields stay as they are. */
interface GoalPatch {
  status?: string;
  activated_at?: string;
  completed_at?: string;
  completed_progress?: number;
  /** The completion was withdrawn after the last GoalCompleted of the batch: clear completed_at and its progress. */
  withdrawn?: boolean;
  closed_at?: string;
  canceled_at?: string;
  stake_forfeited?: boolean;
  deleted_at?: string;
  frozen?: boolean;
  progress?: number;
}

interface GoalBatch {
  /** New goal rows by id; later events of the same batch are merged into them. */
  readonly created: Map<string, Record<string, unknown>>;
  /** Changes to goals created in earlier batches, merged in log order (the last status wins, as in the stream). */
  readonly patches: Map<string, GoalPatch>;
  readonly facts: Record<string, unknown>[];
  readonly deletedRuns: string[];
  readonly users: Set<string>;
}

function patchFor(event: GoalEvent): GoalPatch | null {
  switch (event.type) {
    case 'GoalCreated':
    case 'GoalProgressRecorded': // written by older versions only; progress is the runs'
      return null;
    case 'GoalActivated':
      return { status: 'active', activated_at: event.data.activatedAt };
    case 'GoalCompleted':
      return {
        status: 'completed',
        completed_at: event.data.completedAt,
        completed_progress: event.data.progress,
        withdrawn: false,
      };
    case 'GoalCompletionWithdrawn':
      return { status: 'active', withdrawn: true };
    case 'GoalWeekClosed':
      return { closed_at: event.data.closedAt, frozen: true, progress: event.data.progress };
    case 'GoalMissed':
      return { status: 'missed', closed_at: event.data.closedAt, frozen: true, progress: event.data.progress };
    case 'GoalCanceled':
      return { status: 'canceled', canceled_at: event.data.canceledAt, stake_forfeited: event.data.stakeForfeited };
    case 'GoalDeleted':
      return { status: 'deleted', deleted_at: event.data.deletedAt };
    default: {
      const unreachable: never = event;
      return unreachable;
    }
  }
}

function createdRow(data: Extract<GoalEvent, { type: 'GoalCreated' }>['data']): Record<string, unknown> {
  const week = weekStartingOn(data.weekStart, data.timeZone);
  return {
    id: data.goalId,
    user_id: data.userId,
    type: data.type,
    target_value: data.targetValue,
    entered_value: data.enteredValue,
    entered_unit: data.enteredUnit,
    stake_amount_cents: data.stakeAmountCents,
    charity_id: data.charityId,
    time_zone: data.timeZone,
    period_start: data.weekStart,
    period_end: data.weekEnd,
    week_starts_at: week.start.toString(),
    week_ends_at: week.end.toString(),
    status: 'upcoming',
    progress: 0,
    frozen: false,
    created_at: data.createdAt,
    activated_at: null,
    completed_at: null,
    completed_progress: null,
    closed_at: null,
    canceled_at: null,
    stake_forfeited: false,
    deleted_at: null,
  };
}

/** A patch applied to a row created in the same batch (no SQL COALESCE there: the row is plain data). */
function mergeIntoCreated(row: Record<string, unknown>, patch: GoalPatch): void {
  const { withdrawn, ...fields } = patch;
  Object.assign(row, fields);
  if (withdrawn) Object.assign(row, { completed_at: null, completed_progress: null });
}

function foldGoalBatch(events: readonly RecordedEvent[]): GoalBatch {
  const batch: GoalBatch = { created: new Map(), patches: new Map(), facts: [], deletedRuns: [], users: new Set() };
  for (const recorded of events) {
    const event = recorded as unknown as GoalEvent | RunEvent;
    switch (event.type) {
      case 'GoalCreated':
        batch.created.set(event.data.goalId, createdRow(event.data));
        batch.users.add(event.data.userId);
        break;
      case 'RunRecorded': {
        const d = event.data;
        const run = countableRun(d, d.recordedAt);
        batch.facts.push({
          run_id: d.runId,
          user_id: d.userId,
          started_at: Temporal.Instant.from(d.startedAt).toString(),
          ended_at: new Date(run.endedAtMs).toISOString(),
          recorded_at: d.recordedAt,
          verification: d.verification,
        });
        batch.users.add(d.userId);
        break;
      }
      case 'RunDeleted':
        batch.deletedRuns.push(event.data.runId);
        batch.users.add(event.data.userId);
        break;
      case 'GoalActivated':
      case 'GoalCompleted':
      case 'GoalCompletionWithdrawn':
      case 'GoalWeekClosed':
      case 'GoalMissed':
      case 'GoalCanceled':
      case 'GoalDeleted': {
        const patch = patchFor(event);
        if (patch === null) break;
        const row = batch.created.get(event.data.goalId);
        if (row) mergeIntoCreated(row, patch);
        else batch.patches.set(event.data.goalId, { ...batch.patches.get(event.data.goalId), ...patch });
        break;
      }
      default:
        // Every other event (including other modules' events that happen to carry a goalId) is not ours.
        break;
    }
  }
  return batch;
}
