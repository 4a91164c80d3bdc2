import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { healthRouteErrors, healthRouteProblem } from './health-route.ts';

const START = Date.parse('2026-11-18T10:00:00Z');
const TOLERANCE_MS = 120_000;

/** A workout's duration and fix times inside its time (give or take the tolerance), in time order. */
const insideRoute = fc.integer({ min: 60, max: 48 * 3600 }).chain((durationSec) =>
  fc
    .array(fc.integer({ min: START - TOLERANCE_MS, max: START + durationSec * 1000 + TOLERANCE_MS }), {
      maxLength: 200,
    })
    .map((times) => ({ durationSec, times: [...times].sort((a, b) => a - b) })),
);

describe('a health store route (health-route.ts)', () => {
  it('is accepted when in time order and inside the workout, ties included', () => {
    fc.assert(
      fc.property(insideRoute, ({ durationSec, times }) => {
        expect(
          healthRouteProblem(
            START,
            durationSec,
            times.map((timestamp) => ({ timestamp })),
          ),
        ).toBeNull();
      }),
      { numRuns: 300 },
    );
  });

  it('is refused when any two fixes are out of order', () => {
    fc.assert(
      fc.property(insideRoute, fc.nat(), ({ durationSec, times }, pick) => {
        const distinct = [...new Set(times)];
        fc.pre(distinct.length >= 2);
        const i = pick % (distinct.length - 1);
        const swapped = [...distinct];
        [swapped[i], swapped[i + 1]] = [swapped[i + 1]!, swapped[i]!];
        const route = swapped.map((timestamp) => ({ timestamp }));
        expect(healthRouteProblem(START, durationSec, route)).toBe(healthRouteErrors.outOfOrder);
      }),
      { numRuns: 300 },
    );
  });

  it('is refused when one fix lies outside the workout beyond the tolerance', () => {
    fc.assert(
      fc.property(
        insideRoute,
        fc.integer({ min: 1, max: 7 * 86_400_000 }),
        fc.boolean(),
        ({ durationSec, times }, beyond, before) => {
          const route = before
            ? [START - TOLERANCE_MS - beyond, ...times]
            : [...times, START + durationSec * 1000 + TOLERANCE_MS + beyond];
          expect(
            healthRouteProblem(
              START,
              durationSec,
              route.map((timestamp) => ({ timestamp })),
            ),
          ).toBe(healthRouteErrors.outsideWorkout(2));
        },
      ),
      { numRuns: 300 },
    );
  });
});
