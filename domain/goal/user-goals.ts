import { type Either, left, right } from 'fp-ts/lib/Either.js';
import { Temporal } from 'temporal-polyfill';
import { z } from 'zod';
import { type DomainError, defineDecider } from '../shared/decider.ts';
import { entityId, isoDate, isoInstant } from '../shared/event-schema.ts';
import { maySettle } from '../shared/settlement.ts';
import { hasWeekStartedInZone, isWithinWeek, type WeekRange, weekStartingOn } from '../shared/week.ts';
import { goalErrors } from './messages.ts';
import { PAUSE_REASONS } from './pause-horizon.ts';
import {
  type CancelWeekPause,
  decideCancelWeekPause,
  decidePauseWeek,
  type PausedWeek,
  type PauseWeek,
  pausedWeekOverlapping,
} from './week-pauses.ts';

/**
 * The per-user goal index, stream `user-goals-<userId>`: which of the user's goals hold a week.
 *
 * Why a separate aggregate: "one upcoming goal and one active goal per user" spans goal streams, and a goal stream
 * cannot see its siblings. The index is the one place that rule lives, under the store's optimistic concurrency,
 * so two simultaneous wizard submits cannot both win.
 *
 * The rule it keeps is "the weeks of a user's live goals never overlap, and at most one has not begun" (live = not
 * canceled or deleted). Weeks are compared as instants in each goal's own zone, so a user who moves from Honolulu
 * to Auckland cannot hold two goals for the same stretch of real time under two different Monday dates. A goal can
 * only be created for the current or the next week, so this gives at most one upcoming goal and one active goal,
 * and whether a goal is upcoming needs no status forwarding: it follows from its week and the clock.
 * A canceled or deleted goal frees its week. If the release lags, the user is briefly blocked: the safe side.
 *
 * Flow (see `decideCreateGoal`): decide the goal's events (validation), then reserve the week here and append with
 * the expected version, then append the goal stream with `no_stream`. Reservation is idempotent per goal id, so a
 * handler that crashed between the two appends simply retries with the same goal id.
 *
 * The index also holds the user's paused weeks (week-pauses.ts): a paused week has no goal, so both rules live here.
 */
export interface UserGoalsState {
  /** Live goals by id, with their week. */
  readonly live: Readonly<Record<string, LiveGoalWeek>>;
  /** Paused weeks by Monday (YYYY-MM-DD in the zone the pause keeps). */
  readonly paused: Readonly<Record<string, PausedWeek>>;
}

/** The week a live goal holds: its Monday (YYYY-MM-DD) in its own zone. */
export interface LiveGoalWeek {
  readonly weekStart: string;
  readonly timeZone: string;
}

/** Claim a week for a new goal. */
export interface ReserveGoalWeek {
  readonly type: 'ReserveGoalWeek';
  readonly goalId: string;
  readonly weekStart: string;
  /** The goal's (fixed) zone. */
  readonly timeZone: string;
  readonly now: Temporal.Instant;
}

/** Free the week of a canceled or deleted goal. */
export interface ReleaseGoalWeek {
  readonly type: 'ReleaseGoalWeek';
  readonly goalId: string;
}

/** Commands of the per-user index. */
export type UserGoalsCommand = ReserveGoalWeek | ReleaseGoalWeek | PauseWeek | CancelWeekPause;

/** Events of the per-user index: a week reserved for a goal, and freed again. */
export const UserGoalsEvent = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('GoalWeekReserved'),
    data: z.object({ goalId: entityId, weekStart: isoDate, timeZone: z.string().min(1) }),
  }),
  z.object({ type: z.literal('GoalWeekReleased'), data: z.object({ goalId: entityId }) }),
  /** A week paused with notice (issue 25): no goal, no stake, the streak kept. */
  z.object({
    type: z.literal('WeekPaused'),
    data: z.object({
      userId: entityId,
      weekStart: isoDate,
      timeZone: z.string().min(1),
      /** Personal (app-server/privacy): null once the account is erased (crypto-shredded). */
      reason: z.enum(PAUSE_REASONS).nullable(),
      pausedAt: isoInstant,
    }),
  }),
  /** A pause canceled before its week began. */
  z.object({
    type: z.literal('WeekPauseCanceled'),
    data: z.object({ userId: entityId, weekStart: isoDate, canceledAt: isoInstant }),
  }),
]);
/** Events of the per-user index. */
export type UserGoalsEvent = z.infer<typeof UserGoalsEvent>;

/** Whether two weeks share any instant. */
function overlaps(a: WeekRange, b: WeekRange): boolean {
  return Temporal.Instant.compare(a.start, b.end) < 0 && Temporal.Instant.compare(b.start, a.end) < 0;
}

function decide(command: UserGoalsCommand, state: UserGoalsState): Either<DomainError, readonly UserGoalsEvent[]> {
  switch (command.type) {
    case 'ReserveGoalWeek': {
      const { goalId, weekStart, timeZone, now } = command;
      if (state.live[goalId]?.weekStart === weekStart) return right([]);
      // A paused week has no goal (and so no stake): the wizard's submit is refused with the way out.
      const paused = pausedWeekOverlapping(state, weekStart, timeZone);
      if (paused !== null) return left(goalErrors.weekPaused(paused));
      const wanted = weekStartingOn(weekStart, timeZone);
      const wantedIsUpcoming = !hasWeekStartedInZone(weekStart, timeZone, now);
      for (const other of Object.values(state.live)) {
        const otherHasBegun = hasWeekStartedInZone(other.weekStart, other.timeZone, now);
        if (overlaps(wanted, weekStartingOn(other.weekStart, other.timeZone)) || (wantedIsUpcoming && !otherHasBegun)) {
          return left(otherHasBegun ? goalErrors.alreadyThisWeek() : goalErrors.alreadyUpcoming());
        }
      }
      return right([{ type: 'GoalWeekReserved', data: { goalId, weekStart, timeZone } }]);
    }
    case 'ReleaseGoalWeek':
      return right(
        command.goalId in state.live ? [{ type: 'GoalWeekReleased', data: { goalId: command.goalId } }] : [],
      );
    case 'PauseWeek':
      return decidePauseWeek(command, state);
    case 'CancelWeekPause':
      return decideCancelWeekPause(command, state);
    default: {
      const unreachable: never = command;
      return unreachable;
    }
  }
}

function evolve(state: UserGoalsState, event: UserGoalsEvent): UserGoalsState {
  switch (event.type) {
    case 'GoalWeekReserved':
      return {
        ...state,
        live: {
          ...state.live,
          [event.data.goalId]: { weekStart: event.data.weekStart, timeZone: event.data.timeZone },
        },
      };
    case 'GoalWeekReleased': {
      const { [event.data.goalId]: _released, ...live } = state.live;
      return { ...state, live };
    }
    case 'WeekPaused': {
      const { weekStart, timeZone } = event.data;
      return { ...state, paused: { ...state.paused, [weekStart]: { timeZone } } };
    }
    case 'WeekPauseCanceled': {
      const { [event.data.weekStart]: _canceled, ...paused } = state.paused;
      return { ...state, paused };
    }
    default: {
      const unreachable: never = event;
      return unreachable;
    }
  }
}

/** The per-user goal index decider. */
export const userGoalsDecider = defineDecider<UserGoalsCommand, UserGoalsEvent, UserGoalsState>({
  initialState: { live: {}, paused: {} },
  evolve,
  decide,
  eventSchema: UserGoalsEvent,
});

/**
 * Whether a live goal of the user holds the instant `at` in its week and may already be settled at `now`: a run
 * uploaded after the fact must not reach into such a week (issue 11: runs logged after a goal's settlement never
 * change it).
 */
export function isSettledWeek(index: UserGoalsState, at: Temporal.Instant, now: Temporal.Instant): boolean {
  return Object.values(index.live).some(
    (week) =>
      isWithinWeek(at, weekStartingOn(week.weekStart, week.timeZone)) && maySettle(week.weekStart, week.timeZone, now),
  );
}
