import fc from 'fast-check';
import { Temporal } from 'temporal-polyfill';
import { describe, expect, it } from 'vitest';
import { runDecider } from './decide.ts';
import { runEventFits } from './event-fits.ts';
import { RunEvent } from './events.ts';

/** A RunRecorded the decider makes from a plain track (its fixes may then be spoiled below). */
function recorded(
  fixes: readonly { latitude: number; longitude: number; timestamp: number }[],
): Extract<RunEvent, { type: 'RunRecorded' }> {
  const startedAt = Temporal.Instant.fromEpochMilliseconds(fixes[0]!.timestamp);
  const decision = runDecider.decide(
    {
      type: 'LogGpsRun',
      runId: 'b7b3a6a2-1c1f-4c55-9f0e-6f3b1b1d2c3e',
      userId: '5d1c8a7e-1111-4222-8333-444455556666',
      startedAt,
      durationSec: (fixes[fixes.length - 1]!.timestamp - fixes[0]!.timestamp) / 1000,
      positions: fixes,
      notes: null,
      weekSettled: false,
      live: false,
      now: startedAt.add({ hours: 2 }),
    },
    runDecider.initialState,
  );
  if (decision._tag !== 'Right') throw new Error(`refused: ${decision.left.code}`);
  const event = decision.right[0]!;
  if (event.type !== 'RunRecorded') throw new Error(`decided ${event.type}`);
  return event;
}

/** A run of ~3 m steps every 3–6 s (two minutes at least) from a point in Paris. */
const trackArb = fc
  .array(fc.tuple(fc.integer({ min: 3_000, max: 6_000 }), fc.integer({ min: -20, max: 20 })), {
    minLength: 40,
    maxLength: 80,
  })
  .map((steps) => {
    let t = 1_763_449_200_000;
    let lat = 48.8566;
    let lng = 2.3522;
    return steps.map(([ms, turn]) => {
      t += ms;
      lat += 2.5e-5 + turn * 1e-7;
      lng += 1e-5;
      return { latitude: lat, longitude: lng, timestamp: t, accuracy: 5 };
    });
  });

/** Ways to spoil one fix: each may or may not still fit GpsFix. */
const spoil = fc.oneof(
  fc.constantFrom<unknown>(
    undefined,
    null,
    'a fix',
    [],
    Number.NaN,
    { latitude: 1, longitude: 2 },
    { latitude: 1, longitude: 2, timestamp: Number.POSITIVE_INFINITY },
    { latitude: 1, longitude: 2, timestamp: 3, accuracy: Number.NaN },
    { latitude: 1, longitude: 2, timestamp: 3, accuracy: null, receivedAt: null, elevation: null },
    { latitude: 1, longitude: 2, timestamp: 3, elevation: '12' },
    { latitude: '1', longitude: 2, timestamp: 3 },
    { latitude: 1, longitude: 2, timestamp: 3, extra: 'kept out' },
    Object.assign(Object.create(null) as object, { latitude: 1, longitude: 2, timestamp: 3 }),
  ),
  fc.record({ latitude: fc.double(), longitude: fc.double(), timestamp: fc.double() }),
);

describe('runEventFits (the run decider past zod for a track)', () => {
  it('says a recorded run fits only when the schema takes it, however its fixes are spoiled', () => {
    fc.assert(
      fc.property(
        trackArb,
        fc.array(fc.tuple(fc.nat(), spoil), { maxLength: 3 }),
        fc.boolean(),
        (track, spoils, hole) => {
          const event = recorded(track);
          const positions: unknown[] = [...event.data.positions];
          for (const [at, bad] of spoils) positions[at % positions.length] = bad;
          if (hole) delete positions[positions.length - 1];
          const spoiled = { ...event, data: { ...event.data, positions } } as RunEvent;
          if (runEventFits(spoiled)) expect(RunEvent.safeParse(spoiled).success).toBe(true);
        },
      ),
      { numRuns: 3_000 },
    );
  });

  it('lets every run the decider records past without zod, and leaves the other events to the schema', () => {
    fc.assert(
      fc.property(trackArb, (track) => {
        const event = recorded(track);
        expect(runEventFits(event)).toBe(true);
        expect(RunEvent.safeParse(event).success).toBe(true);
      }),
      { numRuns: 300 },
    );
    const deleted = { type: 'RunDeleted', data: { runId: 'r', userId: 'u', deletedAt: '2026-11-29T00:00:00.000Z' } };
    expect(runEventFits(deleted as RunEvent)).toBe(false);
  });

  it('answers the schema for what it judges beside the fixes: a bad run id does not fit', () => {
    fc.assert(
      fc.property(trackArb, (track) => {
        const event = recorded(track);
        const bad = { ...event, data: { ...event.data, runId: '' } } as RunEvent;
        expect(runEventFits(bad)).toBe(false);
        expect(RunEvent.safeParse(bad).success).toBe(false);
      }),
      { numRuns: 100 },
    );
  });
});
