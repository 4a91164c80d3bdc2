import { type Either, left, right } from 'fp-ts/lib/Either.js';
import { Temporal } from 'temporal-polyfill';
import type { DomainError } from '../shared/decider.ts';
import { hasWeekStartedInZone, type WeekRange, weekStartingOn } from '../shared/week.ts';
import { goalErrors } from './messages.ts';
import { earliestPausableWeek, isMonday, isPauseNoticeGiven, type PauseReason } from './pause-horizon.ts';
import type { UserGoalsEvent, UserGoalsState } from './user-goals.ts';

/**
 * The pause decisions of the user's goal index (user-goals.ts; the rule and its why: pause-horizon.ts).
 *
 * Pauses live on the same stream as the goal weeks, `user-goals-<userId>`, because "a paused week has no goal" spans
 * both: a goal reserving a paused week and a pause on a goal's week are refused under the one stream's optimistic
 * concurrency, so a wizard submit and a pause racing each other cannot both win.
 *
 * A pause on a week that already has a goal is REFUSED, not applied by canceling that goal. Such a goal can only be
 * next week's (goals exist for this week or the next, and a pause needs 7 days' notice): it holds nothing on the card
 * yet, so deleting it costs nothing, but it is a commitment the runner made on purpose, with a target, a stake and a
 * charity. A demanding user expects a pause never to undo something they set without asking; the sentence says what
 * to do, and both steps stay explicit and visible.
 *
 * A pause may be canceled at any time before its week begins, even inside the 7 days: the notice guards against
 * escaping a week, and canceling a pause escapes nothing (it only makes room for a goal). Once the week has begun the
 * pause is part of the record the streak is judged on, and stays.
 */

/** Pause one week (its Monday in the runner's zone). */
export interface PauseWeek {
  readonly type: 'PauseWeek';
  readonly userId: string;
  readonly weekStart: string;
  /** The runner's zone now; the pause keeps it, as a goal keeps its own. */
  readonly timeZone: string;
  readonly reason: PauseReason;
  readonly now: Temporal.Instant;
}

/** Cancel a pause whose week has not begun. */
export interface CancelWeekPause {
  readonly type: 'CancelWeekPause';
  readonly userId: string;
  readonly weekStart: string;
  readonly now: Temporal.Instant;
}

/**
 * A paused week as the index keeps it: only what the rules decide on. The reason stays in the event (personal data,
 * crypto-shredded) and in the pauses read model; keeping it out of the state lets a worker remember folded indexes
 * (stream-state-cache.ts) without holding anyone's reason in memory.
 */
export interface PausedWeek {
  readonly timeZone: string;
}

function overlaps(a: WeekRange, b: WeekRange): boolean {
  return Temporal.Instant.compare(a.start, b.end) < 0 && Temporal.Instant.compare(b.start, a.end) < 0;
}

/** The paused week (its Monday) that shares an instant with the week `weekStart` in `timeZone`, if any. */
export function pausedWeekOverlapping(state: UserGoalsState, weekStart: string, timeZone: string): string | null {
  const wanted = weekStartingOn(weekStart, timeZone);
  for (const [paused, pause] of Object.entries(state.paused)) {
    if (overlaps(wanted, weekStartingOn(paused, pause.timeZone))) return paused;
  }
  return null;
}

type Decision = Either<DomainError, readonly UserGoalsEvent[]>;

/** Decides a pause: idempotent for a week already paused, refused with a sentence otherwise when the rules say no. */
export function decidePauseWeek(command: PauseWeek, state: UserGoalsState): Decision {
  const { userId, weekStart, timeZone, reason, now } = command;
  if (!isMonday(weekStart)) return left(goalErrors.pauseNotMonday());
  // The same pause twice is one pause (a retried request, a double tap), even once inside the notice.
  if (weekStart in state.paused) return right([]);
  if (!isPauseNoticeGiven(weekStart, timeZone, now)) {
    return left(goalErrors.pauseTooSoon(earliestPausableWeek(now, timeZone)));
  }
  const wanted = weekStartingOn(weekStart, timeZone);
  for (const goal of Object.values(state.live)) {
    if (overlaps(wanted, weekStartingOn(goal.weekStart, goal.timeZone))) {
      return left(goalErrors.pauseWeekHasGoal(goal.weekStart));
    }
  }
  return right([{ type: 'WeekPaused', data: { userId, weekStart, timeZone, reason, pausedAt: now.toString() } }]);
}

/** Decides canceling a pause: any time before its week begins; an unknown week is not found. */
export function decideCancelWeekPause(command: CancelWeekPause, state: UserGoalsState): Decision {
  const pause = state.paused[command.weekStart];
  if (!pause) return left(goalErrors.pauseNotFound());
  if (hasWeekStartedInZone(command.weekStart, pause.timeZone, command.now)) return left(goalErrors.pauseBegun());
  const { userId, weekStart, now } = command;
  return right([{ type: 'WeekPauseCanceled', data: { userId, weekStart, canceledAt: now.toString() } }]);
}
