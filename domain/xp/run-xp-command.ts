import type { Temporal } from 'temporal-polyfill';
import { localStartOf } from '../gamification/badge-criteria.ts';
import { countableRun } from '../run/count-once.ts';
import { countedDistanceKm } from '../run/counting.ts';
import type { RunRecorded } from '../run/events.ts';
import { type Surge, xpMultiplierAt } from '../surge/state.ts';
import type { XpLedgerCommand } from './commands.ts';

/**
 * The XP ledger command a recorded run calls for, or null when it earns nothing (a rejected run: a car ride, a
 * bike). One builder for the xp-awards process and for anything that replays its decisions (the bench seed), so the
 * two can never pay differently for the same run.
 */
export function runXpCommand(
  run: RunRecorded['data'],
  timeZone: string,
  surges: Iterable<Surge>,
  now: Temporal.Instant,
): XpLedgerCommand | null {
  const distanceKm = countedDistanceKm(run.verification, 'free_goal_or_xp');
  if (distanceKm <= 0) return null;
  return {
    type: 'AwardRunXp',
    userId: run.userId,
    runId: run.runId,
    distanceKm,
    startedAt: run.startedAt,
    localStart: localStartOf(run.startedAt, timeZone),
    // The multiplier in force when the run started: a run finished after the surge ended still earns it.
    xpMultiplier: xpMultiplierAt(surges, run.startedAt),
    // Policy version 2: paid once per stretch of time and per recording (count-once).
    ...(run.verification.policyVersion === 2
      ? {
          endedAt: new Date(countableRun(run, run.recordedAt).endedAtMs).toISOString(),
          trackKey: run.verification.trackKey,
        }
      : {}),
    now,
  };
}
