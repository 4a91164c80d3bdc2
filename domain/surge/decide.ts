import { type Either, left, right } from 'fp-ts/lib/Either.js';
import { compareInstants } from '../gamification/time.ts';
import { type Decider, type DomainError, domainError } from '../shared/decider.ts';
import type { CancelSurge, ScheduleSurge, SurgeCommand } from './commands.ts';
import type { SurgeEvent } from './events.ts';
import { initialSurgeScheduleState, type SurgeScheduleState, surgeStatusAt } from './state.ts';

type Result = Either<DomainError, readonly SurgeEvent[]>;

/** Highest XP multiplier a surge may carry: beyond 5x a single run would dwarf a month of goals. */
export const MAX_SURGE_MULTIPLIER = 5;

function schedule(command: ScheduleSurge, state: SurgeScheduleState): Result {
  const { surgeId, xpMultiplier, startsAt, endsAt, now } = command;
  if (state.surges.has(surgeId)) return left(domainError('conflict', 'surge_exists', 'Surge already exists'));
  if (!Number.isFinite(xpMultiplier) || xpMultiplier <= 1) {
    return left(domainError('invalid', 'multiplier_too_low', 'Surge multiplier must be greater than 1'));
  }
  if (xpMultiplier > MAX_SURGE_MULTIPLIER) {
    return left(domainError('invalid', 'multiplier_too_high', 'Surge multiplier must be at most 5'));
  }
  if (compareInstants(endsAt, startsAt) <= 0) {
    return left(domainError('invalid', 'surge_ends_before_start', 'Surge must end after it starts'));
  }
  if (compareInstants(startsAt, now) < 0) {
    return left(domainError('invalid', 'surge_starts_in_past', 'Surge cannot start in the past'));
  }
  // Half-open intervals: one surge may start at the very instant another ends.
  const overlaps = [...state.surges.values()].some(
    (s) => s.canceledAt === null && compareInstants(startsAt, s.endsAt) < 0 && compareInstants(s.startsAt, endsAt) < 0,
  );
  if (overlaps) return left(domainError('conflict', 'surge_overlaps', 'Surge overlaps another surge'));
  return right([{ type: 'SurgeScheduled', data: { surgeId, xpMultiplier, startsAt, endsAt, scheduledAt: now } }]);
}

function cancel(command: CancelSurge, state: SurgeScheduleState): Result {
  const surge = state.surges.get(command.surgeId);
  if (!surge) return left(domainError('not_found', 'surge_not_found', 'Surge not found'));
  const status = surgeStatusAt(surge, command.now);
  switch (status) {
    case 'scheduled':
      return right([{ type: 'SurgeCanceled', data: { surgeId: surge.surgeId, canceledAt: command.now } }]);
    case 'active':
      // Runs already logged earned the bonus; cutting a surge short would make the banner's promise a lie.
      return left(domainError('conflict', 'surge_active', 'An active surge cannot be canceled'));
    case 'ended':
      return left(domainError('conflict', 'surge_ended', 'Surge has already ended'));
    case 'canceled':
      return left(domainError('conflict', 'surge_canceled', 'Surge is already canceled'));
    default: {
      const unreachable: never = status;
      return unreachable;
    }
  }
}

/** Decides a surge command against the whole schedule. */
export function decideSurge(command: SurgeCommand, state: SurgeScheduleState): Result {
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

/** Applies one surge event. */
export function evolveSurge(state: SurgeScheduleState, event: SurgeEvent): SurgeScheduleState {
  const surges = new Map(state.surges);
  switch (event.type) {
    case 'SurgeScheduled': {
      const { surgeId, xpMultiplier, startsAt, endsAt } = event.data;
      surges.set(surgeId, { surgeId, xpMultiplier, startsAt, endsAt, canceledAt: null });
      break;
    }
    case 'SurgeCanceled': {
      const surge = surges.get(event.data.surgeId);
      if (surge) surges.set(surge.surgeId, { ...surge, canceledAt: event.data.canceledAt });
      break;
    }
    default: {
      const unreachable: never = event;
      return unreachable;
    }
  }
  return { surges };
}

/** The surge schedule (stream `surge-schedule`): scheduled → active → ended by time, or canceled before start. */
export const surgeDecider: Decider<SurgeCommand, SurgeEvent, SurgeScheduleState> = {
  initialState: initialSurgeScheduleState,
  evolve: evolveSurge,
  decide: decideSurge,
};
