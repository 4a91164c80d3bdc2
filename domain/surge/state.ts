import { Temporal } from 'temporal-polyfill';
import { compareInstants } from '../shared/instant.ts';
import type { SurgeEvent } from './events.ts';

/** One surge as scheduled; `canceledAt` is set once it was called off. */
export interface Surge {
  readonly surgeId: string;
  readonly xpMultiplier: number;
  readonly startsAt: string;
  readonly endsAt: string;
  readonly canceledAt: string | null;
}

/** Where a surge stands at a given instant: the status is derived from time, never stored. */
export type SurgeStatus = 'scheduled' | 'active' | 'ended' | 'canceled';

/**
 * All surges, in one stream (`surge-schedule`). One stream rather than `surge-<id>` because "no two surges overlap"
 * is an invariant across surges: only a single consistency boundary can enforce it without a race.
 */
export interface SurgeScheduleState {
  readonly surges: ReadonlyMap<string, Surge>;
}

/** The schedule before any surge. */
export const initialSurgeScheduleState: SurgeScheduleState = { surges: new Map() };

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

/** The status of a surge at `now` (ISO-8601): active on [startsAt, endsAt), ended from endsAt on. */
export function surgeStatusAt(surge: Surge, now: string): SurgeStatus {
  if (surge.canceledAt !== null) return 'canceled';
  if (compareInstants(now, surge.startsAt) < 0) return 'scheduled';
  if (compareInstants(now, surge.endsAt) < 0) return 'active';
  return 'ended';
}

/** The surge active at `at`, if any (at most one, since surges never overlap). */
export function activeSurgeAt(surges: Iterable<Surge>, at: string): Surge | null {
  for (const surge of surges) if (surgeStatusAt(surge, at) === 'active') return surge;
  return null;
}

/** The XP multiplier in force at `at`: the active surge's, else 1. */
export function xpMultiplierAt(surges: Iterable<Surge>, at: string): number {
  return activeSurgeAt(surges, at)?.xpMultiplier ?? 1;
}

/** Whole seconds until a surge ends, never negative; the banner shows 'Expired' at 0 (§4). */
export function secondsUntilEnd(surge: Surge, now: string): number {
  const ms = Temporal.Instant.from(surge.endsAt).epochMilliseconds - Temporal.Instant.from(now).epochMilliseconds;
  return Math.max(0, Math.floor(ms / 1000));
}
