import fc from 'fast-check';
import { isRight } from 'fp-ts/lib/Either.js';
import { Temporal } from 'temporal-polyfill';
import { describe, expect, it } from 'vitest';
import { isStorableText } from '../shared/storable-text.ts';
import { given } from '../shared/testing/given-when-then.ts';
import type { ImportRun, LogGpsRun } from './commands.ts';
import { runDecider } from './decide.ts';
import type { RunEvent } from './events.ts';
import { EARLIEST_RUN_MS, LATEST_FIX_MS, MAX_FIX_ACCURACY_M, MAX_RUN_KM, MAX_RUN_SECONDS } from './limits.ts';
import { track } from './track.test-helpers.ts';

const now = Temporal.Instant.from('2026-11-18T12:00:00Z');
const started = Temporal.Instant.from('2026-11-18T10:00:00Z');
const positions = track(10, 13, 30, 8, started.epochMilliseconds); // 1 km in 6 minutes
const logGps: LogGpsRun = {
  type: 'LogGpsRun',
  runId: 'r1',
  userId: 'u1',
  startedAt: started,
  durationSec: 360,
  positions,
  notes: null,
  weekSettled: false,
  live: false,
  now,
};
const importRun: ImportRun = {
  type: 'ImportRun',
  runId: 'strava-1',
  userId: 'u1',
  source: 'strava',
  importId: '1',
  startedAt: started,
  distanceKm: 10,
  durationSec: 3000,
  elapsedSec: 3000,
  positions: [],
  flags: { manual: false, trainer: false, flagged: false, sportType: 'Run' },
  notes: null,
  now,
};
const recorded = given(runDecider).when(logGps).events();

describe('what a run can be (limits the read models can hold)', () => {
  it('refuses a duration past 48 hours, from the tracker or an import', () => {
    given(runDecider)
      .when({ ...logGps, durationSec: MAX_RUN_SECONDS })
      .events();
    given(runDecider)
      .when({ ...logGps, durationSec: 2_147_483_648 })
      .thenRejects('run_too_long', 'A run can last at most 48 hours', 'invalid');
    given(runDecider)
      .when({ ...importRun, durationSec: 1e10 })
      .thenRejects('run_too_long', 'A run can last at most 48 hours');
  });

  it('refuses more than 500 km, claimed by an import or drawn by a GPS track', () => {
    given(runDecider)
      .when({ ...importRun, distanceKm: MAX_RUN_KM + 0.01 })
      .thenRejects('run_too_far', 'A run can cover at most 500 km');
    const antipode = { ...positions[1]!, latitude: -40, longitude: 106 };
    given(runDecider)
      .when({ ...logGps, positions: [positions[0]!, antipode] })
      .thenRejects('run_too_far', 'A run can cover at most 500 km');
  });

  it('refuses a start before 2000 (PostgreSQL refuses year 0) and fixes outside 2000–2100 or the globe', () => {
    given(runDecider)
      .when({ ...logGps, startedAt: Temporal.Instant.from('0000-01-01T00:00:00Z') })
      .thenRejects('run_too_early', 'A run cannot start before the year 2000');
    const invalid = 'GPS positions must have a valid latitude, longitude and time';
    for (const bad of [
      { timestamp: EARLIEST_RUN_MS - 1 },
      { timestamp: LATEST_FIX_MS },
      { accuracy: MAX_FIX_ACCURACY_M + 1 },
      { accuracy: -1 },
      { longitude: 180.5 },
    ]) {
      given(runDecider)
        .when({ ...logGps, positions: [positions[0]!, { ...positions[1]!, ...bad }] })
        .thenRejects('invalid_position', invalid);
    }
  });

  it('refuses notes, import ids or sport types PostgreSQL cannot store, also when notes are edited', () => {
    const unstorable = 'Text must not contain NUL characters or unpaired UTF-16 surrogates';
    given(runDecider)
      .when({ ...logGps, notes: 'a\u0000b' })
      .thenRejects('unstorable_text', unstorable);
    given(runDecider)
      .when({ ...logGps, notes: 'a\ud800b' })
      .thenRejects('unstorable_text', unstorable);
    given(runDecider)
      .when({ ...importRun, importId: '1\u0000' })
      .thenRejects('unstorable_text', unstorable);
    given(runDecider)
      .when({ ...importRun, flags: { ...importRun.flags, sportType: 'Run\udc00' } })
      .thenRejects('unstorable_text', unstorable);
    given(runDecider, recorded)
      .when({ type: 'EditNotes', userId: 'u1', notes: 'a\u0000b', now })
      .thenRejects('unstorable_text', unstorable);
  });

  it('property: whatever a command carries, a recorded run fits the runs table', () => {
    const anyNumber = fc.oneof(
      fc.double({ noNaN: false }),
      fc.integer({ min: -(2 ** 40), max: 2 ** 40 }),
      fc.constantFrom(2_147_483_648, 1e10, -0, Number.MAX_VALUE, MAX_RUN_SECONDS, MAX_RUN_SECONDS + 1),
    );
    const codeUnit = fc.integer({ min: 0, max: 0xffff }).map((n) => String.fromCharCode(n));
    const position = fc.record({
      latitude: fc.oneof(fc.double({ min: -90, max: 90, noNaN: true }), anyNumber),
      longitude: fc.oneof(fc.double({ min: -180, max: 180, noNaN: true }), anyNumber),
      timestamp: fc.oneof(fc.integer({ min: EARLIEST_RUN_MS - 10, max: LATEST_FIX_MS + 10 }), anyNumber),
      accuracy: fc.oneof(fc.constant(null), fc.double({ min: 0, max: 200_000, noNaN: true }), anyNumber),
    });
    const instant = fc
      .integer({ min: -62_135_596_800_000, max: now.epochMilliseconds })
      .map((ms) => Temporal.Instant.fromEpochMilliseconds(ms));
    const command = fc.record({
      startedAt: instant,
      durationSec: fc.oneof(fc.integer({ min: 60, max: 200_000 }), anyNumber),
      distanceKm: fc.oneof(fc.double({ min: 0, max: 600, noNaN: true }), anyNumber),
      positions: fc.array(position, { minLength: 2, maxLength: 6 }),
      notes: fc.option(fc.string({ unit: codeUnit, maxLength: 12 })),
      imported: fc.boolean(),
    });
    fc.assert(
      fc.property(command, ({ imported, distanceKm, ...figures }) => {
        const decision = runDecider.decide(
          imported ? { ...importRun, ...figures, distanceKm } : { ...logGps, ...figures },
          runDecider.initialState,
        );
        if (!isRight(decision)) return;
        const [event] = decision.right as RunEvent[];
        if (event?.type !== 'RunRecorded') throw new Error('expected RunRecorded');
        const run = event.data;
        expect(Number.isInteger(run.durationSec) && run.durationSec >= 0 && run.durationSec <= 2_147_483_647).toBe(
          true,
        );
        expect(run.durationSec).toBeLessThanOrEqual(MAX_RUN_SECONDS);
        expect(run.distanceKm >= 0 && run.distanceKm <= MAX_RUN_KM).toBe(true);
        expect(Date.parse(run.startedAt)).toBeGreaterThanOrEqual(EARLIEST_RUN_MS);
        expect(run.notes === null || isStorableText(run.notes)).toBe(true);
        for (const p of run.positions) {
          expect(p.timestamp >= EARLIEST_RUN_MS && p.timestamp < LATEST_FIX_MS).toBe(true);
          expect(Math.abs(p.latitude) <= 90 && Math.abs(p.longitude) <= 180).toBe(true);
        }
      }),
      { numRuns: 500 },
    );
  });
});
