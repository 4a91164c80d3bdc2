import { describe, expect, it } from 'vitest';
import { verifyRun, type Verification } from '../run/verification.ts';
import type { GoalDetails } from './events.ts';
import { type GoalRun, goalProgress } from './progress.ts';

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
const free = { ...goal, stakeAmountCents: 0, paymentMethodId: null };

const run = (
  startedAt: string,
  durationSec: number,
  verification: Verification,
  over: Partial<GoalRun> = {},
): GoalRun => {
  const startedAtMs = Date.parse(startedAt);
  return {
    runId: startedAt,
    userId: 'u1',
    startedAtMs,
    endedAtMs: startedAtMs + durationSec * 1000,
    recordedAtMs: startedAtMs + durationSec * 1000,
    verification,
    ...over,
  };
};
const v1 = (km: number): Verification => ({
  verdict: 'verified',
  reasons: [],
  trustedDistanceKm: km,
  policyVersion: 1,
});
/** A verdict of the current policy whose stake distance lies in one stretch spread evenly over the run's time. */
const v2 = (startedAt: string, durationSec: number, stakeKm: number, freeKm = stakeKm): Verification => ({
  verdict: 'verified',
  reasons: [],
  trustedDistanceKm: freeKm,
  stakeDistanceKm: stakeKm,
  claimedDistanceKm: freeKm,
  excluded: [],
  stakeStretches:
    stakeKm > 0
      ? [{ startMs: Date.parse(startedAt), endMs: Date.parse(startedAt) + durationSec * 1000, km: stakeKm }]
      : [],
  trackKey: null,
  policyVersion: 2,
});
const noTrack = verifyRun({
  startedAtMs: Date.parse('2025-03-12T10:00:00Z'),
  durationSec: 1000,
  elapsedSec: 1000,
  distanceKm: 3,
  positions: [],
  importFlags: { manual: false, trainer: false, flagged: false, sportType: 'Run' },
  recordedAtMs: Date.parse('2025-03-12T12:00:00Z'),
});

describe('goal progress', () => {
  const inWeek = run('2025-03-17T05:00:00Z', 1800, v1(5)); // Sun 19:00 Honolulu
  const nextWeek = run('2025-03-17T10:00:00Z', 2400, v1(7)); // Mon 00:00 Honolulu
  const unTracked = run('2025-03-12T10:00:00Z', 1000, noTrack); // an import without a track

  it('counts runs of the goal week in the goal zone, per the staked policy', () => {
    expect(goalProgress(goal, [inWeek, nextWeek, unTracked])).toBe(5);
  });

  it('a free goal gives the benefit of the doubt', () => {
    expect(goalProgress(free, [inWeek, nextWeek, unTracked])).toBe(8);
  });

  it('a count goal counts runs; other users’ runs never count', () => {
    expect(goalProgress({ ...goal, type: 'count' }, [inWeek, unTracked, { ...inWeek, userId: 'u2' }])).toBe(1);
  });

  it('a staked goal counts only what was run before its week ended', () => {
    // Starts Sunday 23:30 Honolulu (09:30 UTC Monday), runs an hour: half of it is in the next week.
    const straddling = run('2025-03-17T09:30:00Z', 3600, v2('2025-03-17T09:30:00Z', 3600, 10));
    expect(goalProgress(goal, [straddling])).toBe(5);
    expect(goalProgress(free, [straddling])).toBe(10);
  });

  it('runs that overlap, or repeat a recording, count once', () => {
    const a = run('2025-03-12T18:00:00Z', 1800, v2('2025-03-12T18:00:00Z', 1800, 5));
    const b = run('2025-03-12T18:10:00Z', 1800, v2('2025-03-12T18:10:00Z', 1800, 6), { runId: 'b' });
    expect(goalProgress(goal, [a, b])).toBe(6);
    expect(goalProgress({ ...goal, type: 'count' }, [a, b])).toBe(1);
    const later = run('2025-03-13T18:00:00Z', 1800, v2('2025-03-13T18:00:00Z', 1800, 4));
    expect(goalProgress(goal, [a, b, later])).toBe(10);
  });

  it('a neighbour that started before the week can still outrank a run of the week', () => {
    const before = run('2025-03-10T09:50:00Z', 3600, v2('2025-03-10T09:50:00Z', 3600, 9)); // Sun 23:50 Honolulu
    const inside = run('2025-03-10T10:05:00Z', 1800, v2('2025-03-10T10:05:00Z', 1800, 4)); // Mon 00:05
    expect(goalProgress(goal, [inside])).toBe(4);
    expect(goalProgress(goal, [before, inside])).toBe(0);
  });
});
