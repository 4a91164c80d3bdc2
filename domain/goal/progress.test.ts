import { describe, expect, it } from 'vitest';
import type { RunRecord } from '../run/events.ts';
import { verifyRun } from '../run/verification.ts';
import type { GoalDetails } from './events.ts';
import { goalProgress } from './progress.ts';

const goal: GoalDetails = {
  goalId: 'g1',
  userId: 'u1',
  type: 'distance',
  targetValue: 20,
  enteredValue: 20,
  enteredUnit: 'km',
  stakeAmountCents: 1000,
  charityId: null,
  paymentMethodId: 'pm1',
  timeZone: 'Pacific/Honolulu',
  weekStart: '2025-03-10',
  weekEnd: '2025-03-16',
};

const run = (startedAt: string, distanceKm: number, durationSec: number, over: Partial<RunRecord> = {}): RunRecord => {
  const importFlags = { manual: false, trainer: false, flagged: false, sportType: 'Run' };
  return {
    runId: startedAt,
    userId: 'u1',
    source: 'strava',
    importId: startedAt,
    startedAt,
    distanceKm,
    durationSec,
    positions: [],
    importFlags,
    notes: null,
    verification: verifyRun({ distanceKm, durationSec, positions: [], importFlags }),
    ...over,
  };
};

describe('goal progress', () => {
  const verified = { verdict: 'verified' as const, reasons: [], trustedDistanceKm: 0, policyVersion: 1 };
  const inWeek = run('2025-03-17T05:00:00Z', 5, 1800, { verification: { ...verified, trustedDistanceKm: 5 } }); // Sun 19:00 Honolulu
  const nextWeek = run('2025-03-17T10:00:00Z', 7, 2400, { verification: { ...verified, trustedDistanceKm: 7 } }); // Mon 00:00 Honolulu
  const noTrack = run('2025-03-12T10:00:00Z', 3, 1000); // suspicious: no GPS track

  it('counts runs of the goal week in the goal zone, per the staked policy', () => {
    expect(goalProgress(goal, [inWeek, nextWeek, noTrack])).toBe(5);
  });

  it('a free goal gives the benefit of the doubt', () => {
    expect(goalProgress({ ...goal, stakeAmountCents: 0, paymentMethodId: null }, [inWeek, nextWeek, noTrack])).toBe(8);
  });

  it('a count goal counts runs; other users’ runs never count', () => {
    expect(
      goalProgress({ ...goal, type: 'count', targetValue: 3 }, [inWeek, noTrack, { ...inWeek, userId: 'u2' }]),
    ).toBe(1);
  });
});
