import fc from 'fast-check';
import type { GpsPosition } from './geo.ts';
import { DEG_PER_KM } from './track.test-helpers.ts';

/** A glitch injected into a constant-speed track. */
export type InjectedGlitch =
  /** The fix at `at` and every one after it land `metres` east, reached in `sec` s (the 385 m in 2 s). */
  | { readonly kind: 'jump'; readonly at: number; readonly metres: number; readonly sec: number }
  /** One fix `metres` east, the next back on the line. */
  | { readonly kind: 'spike'; readonly at: number; readonly metres: number }
  /** One fix reported less accurate than the policy takes. */
  | { readonly kind: 'inaccurate'; readonly at: number };

/** A constant-speed run due north as a phone reports it live, and the glitches injected into it. */
export interface ConstantRun {
  readonly positions: GpsPosition[];
  readonly speedMps: number;
  readonly stepSec: number;
  /** Seconds between the start tap and the first fix, and between the last fix and the stop tap. */
  readonly leadSec: number;
  readonly tailSec: number;
  /** The run's claimed start (epoch ms) and elapsed time (s), as the tracker sends them. */
  readonly startedAtMs: number;
  readonly durationSec: number;
}

const T0 = 1_767_000_000_000;

/** Builds the run: `fixes` fixes every `stepSec` s at `speedMps`, then the glitches (indices taken modulo the track). */
export function constantRun(
  speedMps: number,
  stepSec: number,
  fixes: number,
  leadSec: number,
  tailSec: number,
  glitches: readonly InjectedGlitch[] = [],
): ConstantRun {
  const first = T0 + leadSec * 1000;
  let positions: GpsPosition[] = Array.from({ length: fixes }, (_, i) => ({
    latitude: 51.5 + ((speedMps * stepSec * i) / 1000) * DEG_PER_KM,
    longitude: -0.12,
    timestamp: first + i * stepSec * 1000,
    accuracy: 8,
  }));
  const east = (p: GpsPosition, metres: number): GpsPosition => ({
    ...p,
    longitude: p.longitude + (metres / 1000) * (DEG_PER_KM / Math.cos((p.latitude * Math.PI) / 180)),
  });
  for (const g of glitches) {
    // Never the first or last fix: a spike needs fixes on both sides, a jump a fix before it.
    const at = 1 + (g.at % Math.max(1, positions.length - 2));
    if (g.kind === 'jump') {
      // A fix `sec` after the one before, shifted; the rest of the run goes on from there.
      const before = positions[at - 1]!;
      const landing = east({ ...before, timestamp: before.timestamp + g.sec * 1000 }, g.metres);
      const shift = landing.timestamp - positions[at]!.timestamp + stepSec * 1000;
      positions = [
        ...positions.slice(0, at),
        landing,
        ...positions.slice(at).map((p) => ({ ...east(p, g.metres), timestamp: p.timestamp + shift })),
      ];
    } else if (g.kind === 'spike') {
      positions[at] = east(positions[at]!, g.metres);
    } else {
      positions[at] = { ...positions[at]!, accuracy: 80 };
    }
  }
  const last = positions[positions.length - 1]!.timestamp;
  return {
    positions,
    speedMps,
    stepSec,
    leadSec,
    tailSec,
    startedAtMs: T0,
    durationSec: Math.round((last - T0) / 1000 + tailSec),
  };
}

/** Constant-speed runs of 0.3 to 4 km at 2.5–5 m/s (6:40 to 3:20 /km), a fix every 1–5 s, no glitch. */
export const steadyRuns = fc
  .record({
    speedMps: fc.double({ min: 2.5, max: 5, noNaN: true }),
    stepSec: fc.integer({ min: 1, max: 5 }),
    km: fc.double({ min: 0.3, max: 4, noNaN: true }),
    leadSec: fc.integer({ min: 0, max: 6 }),
    tailSec: fc.integer({ min: 0, max: 6 }),
  })
  .map(({ speedMps, stepSec, km, leadSec, tailSec }) =>
    constantRun(speedMps, stepSec, Math.max(3, Math.ceil((km * 1000) / (speedMps * stepSec)) + 1), leadSec, tailSec),
  );

/**
 * Constant-speed runs with 1–3 glitches: jumps of 50–400 m made in 1–3 s, spikes of 100–400 m, inaccurate fixes.
 * The run is long enough that its jumps stay under a tenth of the ground covered (more would be a ride: rejected).
 */
export const glitchedRuns = fc
  .record({
    speedMps: fc.double({ min: 2.5, max: 5, noNaN: true }),
    stepSec: fc.integer({ min: 1, max: 5 }),
    extraFixes: fc.integer({ min: 0, max: 300 }),
    glitches: fc.array(
      fc.oneof(
        fc.record({
          kind: fc.constant('jump' as const),
          at: fc.nat(),
          metres: fc.integer({ min: 50, max: 400 }),
          sec: fc.integer({ min: 1, max: 3 }),
        }),
        fc.record({ kind: fc.constant('spike' as const), at: fc.nat(), metres: fc.integer({ min: 100, max: 400 }) }),
        fc.record({ kind: fc.constant('inaccurate' as const), at: fc.nat() }),
      ),
      { minLength: 1, maxLength: 3 },
    ),
  })
  .map(({ speedMps, stepSec, extraFixes, glitches }) => {
    // A spike next to another glitch may stay in the track as two jumps: budget for twice its metres.
    const jumpM = glitches.reduce(
      (sum, g) => sum + (g.kind === 'jump' ? g.metres : g.kind === 'spike' ? 2 * g.metres : 0),
      0,
    );
    const fixes = Math.ceil(Math.max(jumpM * 12, 300) / (speedMps * stepSec) + 4) + extraFixes;
    return constantRun(speedMps, stepSec, fixes, 2, 2, glitches);
  });
