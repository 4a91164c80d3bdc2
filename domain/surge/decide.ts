import { type Either, left, right } from 'fp-ts/lib/Either.js';
import { type DomainError, defineDecider } from '../shared/decider.ts';
import { compareInstants, isoMillis } from '../shared/instant.ts';
import type { CancelSurge, ScheduleSurge, SurgeCommand } from './commands.ts';
import { SurgeEvent } from './events.ts';
import { surgeErrors } from './messages.ts';
import { MAX_SURGE_MULTIPLIER } from './policy.ts';
import { evolveSurge, initialSurgeScheduleState, type SurgeScheduleState, surgeStatusAt } from './state.ts';

/*
 * SURGES (§3 Surge, §4 banner and XP).
 *
 * A surge multiplies the XP of the runs that start inside it. Its status is never stored: it follows from the clock
 * (scheduled, then active on [start, end), then ended), so nothing has to fire at the start or the end. Two surges
 * never overlap, or a run's multiplier would be ambiguous: the whole schedule is one stream, the only boundary that
 * can refuse an overlap without a race. Surges are scheduled for the future only, with a multiplier above 1 and at
 * most MAX_SURGE_MULTIPLIER. Only a surge that has not started may be canceled: runs logged during an active surge
 * already earned its bonus, and cutting it short would make the banner's promise a lie.
 */

type Decision = Either<DomainError, readonly SurgeEvent[]>;

function schedule(command: ScheduleSurge, state: SurgeScheduleState): Decision {
  const { surgeId, xpMultiplier, startsAt, endsAt } = command;
  const now = isoMillis(command.now);
  if (state.surges.has(surgeId)) return left(surgeErrors.exists());
  if (!Number.isFinite(xpMultiplier) || xpMultiplier <= 1) return left(surgeErrors.multiplierTooLow());
  if (xpMultiplier > MAX_SURGE_MULTIPLIER) return left(surgeErrors.multiplierTooHigh());
  if (compareInstants(endsAt, startsAt) <= 0) return left(surgeErrors.endsBeforeStart());
  if (compareInstants(startsAt, now) < 0) return left(surgeErrors.startsInPast());
  // Half-open intervals: one surge may start at the very instant another ends.
  const overlaps = [...state.surges.values()].some(
    (s) => s.canceledAt === null && compareInstants(startsAt, s.endsAt) < 0 && compareInstants(s.startsAt, endsAt) < 0,
  );
  if (overlaps) return left(surgeErrors.overlaps());
  return right([{ type: 'SurgeScheduled', data: { surgeId, xpMultiplier, startsAt, endsAt, scheduledAt: now } }]);
}

function cancel(command: CancelSurge, state: SurgeScheduleState): Decision {
  const surge = state.surges.get(command.surgeId);
  if (!surge) return left(surgeErrors.notFound());
  const now = isoMillis(command.now);
  const status = surgeStatusAt(surge, now);
  switch (status) {
    case 'scheduled':
      return right([{ type: 'SurgeCanceled', data: { surgeId: surge.surgeId, canceledAt: now } }]);
    case 'active':
      return left(surgeErrors.active());
    case 'ended':
      return left(surgeErrors.ended());
    case 'canceled':
      return left(surgeErrors.canceled());
    default: {
      const unreachable: never = status;
      return unreachable;
    }
  }
}

/** Decides a surge command against the whole schedule. */
export function decideSurge(command: SurgeCommand, state: SurgeScheduleState): Decision {
  switch (command.type) {
    case 'ScheduleSurge':
      return schedule(command, state);
    case 'CancelSurge':
      return cancel(command, state);
    default: {
      const unreachable: never = command;
      return unreachable;
    }
  }
}

/** The surge schedule (stream `surge-schedule`): scheduled → active → ended by time, or canceled before start. */
export const surgeDecider = defineDecider<SurgeCommand, SurgeEvent, SurgeScheduleState>({
  initialState: initialSurgeScheduleState,
  evolve: evolveSurge,
  decide: decideSurge,
  eventSchema: SurgeEvent,
});
