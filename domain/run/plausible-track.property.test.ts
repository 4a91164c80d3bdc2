import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { round2 } from '../shared/units.ts';
import { type ConstantRun, constantRun, glitchedRuns, steadyRuns } from './constant-run.test-helpers.ts';
import { gpsDistanceKm, trackLengthKm } from './geo.ts';
import { plausibleDistanceKm, plausibleLegs } from './plausible-track.ts';
import { verifyRun } from './verification.ts';

/** The run as the server judges it after a live session: every fix arrived a second after it was taken. */
function judged(run: ConstantRun) {
  const positions = run.positions.map((p) => ({ ...p, receivedAt: p.timestamp + 1000 }));
  const last = positions[positions.length - 1]!;
  return verifyRun({
    startedAtMs: run.startedAtMs,
    durationSec: run.durationSec,
    elapsedSec: null,
    distanceKm: gpsDistanceKm(positions),
    positions,
    importFlags: null,
    recordedAtMs: last.timestamp + 5_000,
  });
}

const NUM_RUNS = 500;
/** Generated runs are long (up to thousands of fixes) and the policy reads each whole: slow on a shared machine (run once at 5,000 runs). */
const TIMEOUT_MS = 600_000;

describe('the live tracker’s fix rules and the run policy (issue 26: one distance)', () => {
  it(
    'agree on constant-speed runs with injected jumps, spikes and inaccurate fixes: the live distance is the distance counted',
    () => {
      fc.assert(
        fc.property(glitchedRuns, (run) => {
          const verification = judged(run);
          expect(verification.verdict).not.toBe('rejected');
          expect(round2(plausibleDistanceKm(run.positions))).toBe(verification.trustedDistanceKm);
        }),
        { numRuns: NUM_RUNS },
      );
    },
    TIMEOUT_MS,
  );

  it(
    'agree on clean constant-speed runs, where both are the whole track',
    () => {
      fc.assert(
        fc.property(steadyRuns, (run) => {
          const verification = judged(run);
          expect(verification.verdict).toBe('verified');
          expect(round2(plausibleDistanceKm(run.positions))).toBe(verification.trustedDistanceKm);
          expect(plausibleDistanceKm(run.positions)).toBeCloseTo(trackLengthKm(run.positions), 9);
        }),
        { numRuns: NUM_RUNS },
      );
    },
    TIMEOUT_MS,
  );

  it(
    'never count more than the track, whatever its glitches',
    () => {
      fc.assert(
        fc.property(glitchedRuns, (run) => {
          expect(plausibleDistanceKm(run.positions)).toBeLessThanOrEqual(trackLengthKm(run.positions) + 1e-9);
        }),
        { numRuns: NUM_RUNS },
      );
    },
    TIMEOUT_MS,
  );

  it('leave out the issue’s 385 m jump made in 2 s: the live distance is the run’s ground, the policy names the jump', () => {
    // 10 minutes at 5:30 /km, a fix every 2 s, the jump after a minute (in a shorter run it would be over a fifth of
    // the ground: a ride, rejected, counted nowhere).
    const run = constantRun(1000 / 330, 2, 301, 1, 1, [{ kind: 'jump', at: 29, metres: 385, sec: 2 }]);
    const live = plausibleDistanceKm(run.positions);
    expect(trackLengthKm(run.positions) - live).toBeGreaterThan(0.38);
    expect(live).toBeCloseTo((300 * 2 * 1000) / 330 / 1000, 2);
    expect(plausibleLegs(run.positions).filter((leg) => leg.jump)).toHaveLength(1);
    const verification = judged(run);
    expect(verification.reasons).toContain('teleport_segment');
    expect(verification.trustedDistanceKm).toBe(round2(live));
  });
});
