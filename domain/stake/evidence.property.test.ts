import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { goalProgress, type GoalRun } from '../goal/progress.ts';
import type { VerificationReason, VerificationV2 } from '../run/verification.ts';
import { evidenceCompletesGoal, evidenceKm, evidenceProgress } from './evidence.ts';

// Each property was run once with numRuns 5000 before it was committed.
const RUNS = { numRuns: Number(process.env.PROPERTY_RUNS ?? 300) };

const WEEK = { weekStart: '2026-11-16', timeZone: 'Europe/Berlin' } as const;
const WEEK_START_MS = Date.parse('2026-11-15T23:00:00Z');
const WEEK_END_MS = Date.parse('2026-11-22T23:00:00Z');
const HOUR = 3_600_000;

const reasonArb = fc.constantFrom<VerificationReason>(
  'uploaded_late',
  'sparse_gps',
  'inaccurate_gps',
  'teleport_segment',
  'walking_pace',
  'manual_entry',
  'indoor_trainer',
  'no_gps_track',
  'cycling_speed',
);

const verificationArb: fc.Arbitrary<VerificationV2> = fc
  .record({
    claimed: fc.integer({ min: 0, max: 4000 }),
    trustedShare: fc.double({ min: 0, max: 1, noNaN: true }),
    stakeShare: fc.double({ min: 0, max: 1, noNaN: true }),
    reasons: fc.uniqueArray(reasonArb, { maxLength: 3 }),
    rejected: fc.boolean(),
    trackKey: fc.option(fc.constantFrom('k1', 'k2', 'k3', 'k4'), { nil: null }),
  })
  .map(({ claimed, trustedShare, stakeShare, reasons, rejected, trackKey }) => {
    const claimedKm = claimed / 100;
    const trusted = rejected ? 0 : Math.round(claimedKm * trustedShare * 100) / 100;
    const stake = Math.round(trusted * stakeShare * 100) / 100;
    return {
      verdict: rejected ? 'rejected' : reasons.length > 0 ? 'suspicious' : 'verified',
      reasons,
      trustedDistanceKm: trusted,
      stakeDistanceKm: stake,
      claimedDistanceKm: claimedKm,
      excluded: [],
      stakeStretches: [],
      trackKey,
      policyVersion: 2,
    } satisfies VerificationV2;
  });

const runsArb: fc.Arbitrary<GoalRun[]> = fc
  .array(
    fc.record({
      startHour: fc.integer({ min: -24, max: 7 * 24 + 12 }),
      minutes: fc.integer({ min: 5, max: 300 }),
      recordedLagMin: fc.integer({ min: 0, max: 5000 }),
      verification: verificationArb,
    }),
    { maxLength: 8 },
  )
  .map((specs) =>
    specs.map((s, i) => {
      const startedAtMs = WEEK_START_MS + s.startHour * HOUR;
      const endedAtMs = startedAtMs + s.minutes * 60_000;
      return {
        runId: `run-${i}`,
        userId: 'runner',
        startedAtMs,
        endedAtMs,
        recordedAtMs: endedAtMs + s.recordedLagMin * 60_000,
        verification: s.verification,
      };
    }),
  );

const goalOf = (type: 'distance' | 'count', targetValue: number) => ({
  ...WEEK,
  userId: 'runner',
  type,
  targetValue,
  stakeAmountCents: 2000,
});

describe('evidence for an appeal or a late refund', () => {
  it('one run shows at least what counted toward the stake and at most what counted for XP', () => {
    fc.assert(
      fc.property(verificationArb, (v) => {
        expect(evidenceKm(v)).toBeGreaterThanOrEqual(v.stakeDistanceKm);
        expect(evidenceKm(v)).toBeLessThanOrEqual(v.trustedDistanceKm);
        if (v.verdict === 'rejected') expect(evidenceKm(v)).toBe(0);
      }),
      RUNS,
    );
  });

  it('a week never shows less evidence than the progress its stake counted', () => {
    fc.assert(
      fc.property(runsArb, fc.constantFrom<'distance' | 'count'>('distance', 'count'), (runs, type) => {
        const goal = goalOf(type, 10);
        expect(evidenceProgress(goal, runs)).toBeGreaterThanOrEqual(goalProgress(goal, runs) - 0.011);
      }),
      RUNS,
    );
  });

  it('a doubt about the activity never lets the distance it doubts count by rule', () => {
    fc.assert(
      fc.property(runsArb, fc.double({ min: 1, max: 20, noNaN: true }), (runs, inflate) => {
        const doubted = runs.map((run) => ({
          ...run,
          verification: {
            ...(run.verification as VerificationV2),
            reasons: [...run.verification.reasons, 'manual_entry' as const],
          },
        }));
        // What XP would count of a doubted run makes no difference to its evidence: only what the stake counted does.
        const inflated = doubted.map((run) => ({
          ...run,
          verification: { ...run.verification, trustedDistanceKm: run.verification.trustedDistanceKm * inflate },
        }));
        const goal = goalOf('distance', 10);
        expect(evidenceProgress(goal, inflated)).toBe(evidenceProgress(goal, doubted));
      }),
      RUNS,
    );
  });

  it('a run uploaded late completes the week its stake could not count', () => {
    const late: GoalRun = {
      runId: 'late',
      userId: 'runner',
      startedAtMs: WEEK_END_MS - 30 * HOUR,
      endedAtMs: WEEK_END_MS - 29 * HOUR,
      recordedAtMs: WEEK_END_MS + 20 * HOUR,
      verification: {
        verdict: 'suspicious',
        reasons: ['uploaded_late'],
        trustedDistanceKm: 10.4,
        stakeDistanceKm: 0,
        claimedDistanceKm: 10.4,
        excluded: [],
        stakeStretches: [],
        trackKey: 'k9',
        policyVersion: 2,
      },
    };
    const goal = goalOf('distance', 10);
    expect(goalProgress(goal, [late])).toBe(0);
    expect(evidenceCompletesGoal(goal, [late])).toBe(true);
    expect(evidenceCompletesGoal(goal, [{ ...late, userId: 'someone-else' }])).toBe(false);
  });
});
