import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type ConstantRun, glitchedRuns, steadyRuns } from '../../../../../domain/run/constant-run.test-helpers.ts';
import { gpsDistanceKm } from '../../../../../domain/run/geo.ts';
import { plausibleDistanceKm } from '../../../../../domain/run/plausible-track.ts';
import { runTimeline } from '../../../../../domain/run/run-figures.ts';
import { verificationJson } from '../../../../../domain/run/verification-json.ts';
import { verifyRun } from '../../../../../domain/run/verification.ts';
import { MI_PER_KM, round2 } from '../../../../../domain/shared/units.ts';
import { figuresOfRun } from './figures-of-run.ts';
import { paceSeries } from './pace-series.ts';
import { SPLIT_KM, splitsOf } from './splits.ts';

/** The run as GET /runs answers it after a live session (every fix arrived a second after it was taken). */
function savedRun(run: ConstantRun) {
  const positions = run.positions.map((p) => ({ ...p, receivedAt: p.timestamp + 1000 }));
  const distanceKm = gpsDistanceKm(positions);
  const verification = verifyRun({
    startedAtMs: run.startedAtMs,
    durationSec: run.durationSec,
    elapsedSec: null,
    distanceKm,
    positions,
    importFlags: null,
    recordedAtMs: positions[positions.length - 1]!.timestamp + 5_000,
  });
  return {
    distance_km: distanceKm,
    duration_sec: run.durationSec,
    verification: verificationJson(verification, distanceKm, undefined),
  };
}

const unit = fc.constantFrom('km' as const, 'mi' as const);
/** Seconds per km in the user's unit, as every screen shows paces. */
const perUnit = (secPerKm: number, u: 'km' | 'mi') => (u === 'mi' ? secPerKm / MI_PER_KM : secPerKm);
const NUM_RUNS = 500;
/** Generated runs are long (up to thousands of fixes) and the policy reads each whole: slow on a shared machine (run once at 5,000 runs). */
const TIMEOUT_MS = 600_000;

describe('one run, one pace (issue 26): the summary, the splits and the pace chart agree', () => {
  it(
    'a constant-speed run’s every split has the summary’s pace (±1 s per unit), and together its time and distance',
    () => {
      fc.assert(
        fc.property(steadyRuns, unit, (run, u) => {
          const figures = figuresOfRun(savedRun(run));
          const splits = splitsOf(runTimeline(run.positions, figures), SPLIT_KM[u]);
          expect(splits.length).toBeGreaterThan(0);
          for (const s of splits)
            expect(Math.abs(perUnit(s.paceSecPerKm!, u) - perUnit(figures.paceSecPerKm!, u))).toBeLessThanOrEqual(1);
          expect(splits.reduce((sum, s) => sum + s.durationSec, 0)).toBeCloseTo(figures.durationSec, 6);
          expect(splits.reduce((sum, s) => sum + s.distanceKm, 0)).toBeCloseTo(figures.distanceKm, 6);
        }),
        { numRuns: NUM_RUNS },
      );
    },
    TIMEOUT_MS,
  );

  it(
    'a run shorter than one split shows in its one split exactly the summary’s time and pace',
    () => {
      fc.assert(
        fc.property(steadyRuns, unit, (run, u) => {
          const figures = figuresOfRun(savedRun(run));
          fc.pre(figures.distanceKm < SPLIT_KM[u]);
          const [only, ...more] = splitsOf(runTimeline(run.positions, figures), SPLIT_KM[u]);
          expect(more).toEqual([]);
          expect(Math.round(only!.durationSec)).toBe(Math.round(figures.durationSec));
          expect(Math.round(perUnit(only!.paceSecPerKm!, u))).toBe(Math.round(perUnit(figures.paceSecPerKm!, u)));
        }),
        { numRuns: NUM_RUNS },
      );
    },
    TIMEOUT_MS,
  );

  it(
    'a constant-speed run charts flat from its first point: within 1 s/km of the summary’s pace and of the runner’s',
    () => {
      fc.assert(
        fc.property(steadyRuns, (run) => {
          const figures = figuresOfRun(savedRun(run));
          const series = paceSeries(runTimeline(run.positions, figures));
          expect(series.length).toBeGreaterThan(1);
          for (const p of series) expect(Math.abs(p.paceSecPerKm - figures.paceSecPerKm!)).toBeLessThanOrEqual(1);
          // The runner's own pace, but for the seconds before the first fix and after the last (in the run's time)
          // and the distance rounded to 10 m: the chart's first point is the runner's pace, not a spike.
          const truePace = 1000 / run.speedMps;
          const runSec = figures.durationSec;
          const slack = truePace * ((run.leadSec + run.tailSec + 1) / runSec + 0.005 / figures.distanceKm) * 1.1 + 1;
          expect(Math.abs(series[0]!.paceSecPerKm - truePace)).toBeLessThanOrEqual(slack);
        }),
        { numRuns: NUM_RUNS },
      );
    },
    TIMEOUT_MS,
  );

  it(
    'a run with jumps, spikes and inaccurate fixes shows the live tracker’s distance, and its splits add up to the summary',
    () => {
      fc.assert(
        fc.property(glitchedRuns, unit, (run, u) => {
          const figures = figuresOfRun(savedRun(run));
          expect(figures.distanceKm).toBe(round2(plausibleDistanceKm(run.positions)));
          const splits = splitsOf(runTimeline(run.positions, figures), SPLIT_KM[u]);
          expect(splits.reduce((sum, s) => sum + s.durationSec, 0)).toBeCloseTo(figures.durationSec, 6);
          expect(splits.reduce((sum, s) => sum + s.distanceKm, 0)).toBeCloseTo(figures.distanceKm, 6);
          for (const p of paceSeries(runTimeline(run.positions, figures)))
            expect(Number.isFinite(p.paceSecPerKm) && p.paceSecPerKm > 0).toBe(true);
        }),
        { numRuns: NUM_RUNS },
      );
    },
    TIMEOUT_MS,
  );
});
