import { Temporal } from 'temporal-polyfill';
import { describe, expect, it } from 'vitest';
import { given } from '../shared/testing/given-when-then.ts';
import type { ImportRun, LogGpsRun } from './commands.ts';
import { runDecider } from './decide.ts';
import type { RunEvent } from './events.ts';
import { importedRunId } from './import-stream.ts';
import { track } from './track.test-helpers.ts';
import { verifyRun } from './verification.ts';

const now = Temporal.Instant.from('2025-03-10T13:00:00Z');
const started = Temporal.Instant.from('2025-03-10T12:00:00Z');
const positions = track(10, 361, 5, 8, started.epochMilliseconds); // 5 km in 30 minutes

const logGps: LogGpsRun = {
  type: 'LogGpsRun',
  runId: 'r1',
  userId: 'u1',
  startedAt: started,
  durationSec: 1800,
  positions,
  notes: 'easy',
  weekSettled: false,
  live: false,
  now,
};
const recorded: RunEvent = {
  type: 'RunRecorded',
  data: {
    runId: 'r1',
    userId: 'u1',
    source: 'gps',
    importId: null,
    startedAt: started.toString(),
    distanceKm: 5,
    durationSec: 1800,
    positions,
    importFlags: null,
    notes: 'easy',
    verification: verifyRun({
      distanceKm: 5,
      durationSec: 1800,
      elapsedSec: null,
      positions,
      importFlags: null,
      startedAtMs: started.epochMilliseconds,
      recordedAtMs: now.epochMilliseconds,
    }),
    recordedAt: now.toString(),
  },
};
const tooShort =
  'Unable to save run. The run may be too short (minimum 60 seconds) or have insufficient GPS data (minimum 2 positions).';

describe('LogGpsRun', () => {
  it('records the run with the haversine distance and its verdict', () => {
    given(runDecider).when(logGps).then([recorded]);
    expect(recorded.data.verification.verdict).toBe('verified');
  });

  it('refuses under 60 seconds or under 2 positions with the spec message', () => {
    given(runDecider)
      .when({ ...logGps, durationSec: 59 })
      .thenRejects('run_too_short', tooShort, 'invalid');
    given(runDecider)
      .when({ ...logGps, positions: positions.slice(0, 1) })
      .thenRejects('run_too_short', tooShort);
    given(runDecider)
      .when({ ...logGps, durationSec: Number.NaN })
      .thenRejects('run_too_short', tooShort);
  });

  it('accepts exactly 60 seconds and 2 positions', () => {
    const events = given(runDecider)
      .when({ ...logGps, durationSec: 60, positions: positions.slice(0, 2) })
      .events();
    expect(events).toHaveLength(1);
  });

  it('refuses broken positions, a start in the future and over-long notes', () => {
    given(runDecider)
      .when({ ...logGps, positions: [...positions.slice(0, 2), { latitude: 91, longitude: 0, timestamp: 0 }] })
      .thenRejects('invalid_position', 'GPS positions must have a valid latitude, longitude and time');
    given(runDecider)
      .when({ ...logGps, startedAt: now.add({ minutes: 6 }) })
      .thenRejects('run_in_future', 'A run cannot start in the future');
    given(runDecider)
      .when({ ...logGps, notes: 'x'.repeat(1001) })
      .thenRejects('notes_too_long', 'Notes must be at most 1000 characters');
  });

  it('bounds backdating: at most 7 days back, never into a settled week; a live session is not an upload', () => {
    const old = { ...logGps, startedAt: now.subtract({ hours: 7 * 24 + 1 }) };
    given(runDecider)
      .when(old)
      .thenRejects('run_too_old', 'A run can only be logged within 7 days of its start', 'invalid');
    given(runDecider)
      .when({ ...logGps, weekSettled: true })
      .thenRejects(
        'run_week_settled',
        "This run's week has been settled: runs can no longer be added to it",
        'conflict',
      );
    expect(
      given(runDecider)
        .when({ ...logGps, weekSettled: true, live: true })
        .events(),
    ).toHaveLength(1);
    expect(
      given(runDecider)
        .when({ ...logGps, startedAt: now.subtract({ hours: 7 * 24 - 1 }) })
        .events(),
    ).toHaveLength(1);
  });

  it('refuses to record the same run twice', () => {
    given(runDecider, [recorded]).when(logGps).thenRejects('run_exists', 'This run already exists', 'conflict');
  });

  it('refuses to record again a recording whose run the owner deleted (the stream is named by the recording)', () => {
    const deleted: RunEvent = { type: 'RunDeleted', data: { runId: 'r1', userId: 'u1', deletedAt: now.toString() } };
    given(runDecider, [recorded, deleted])
      .when(logGps)
      .thenRejects(
        'run_deleted',
        'You deleted the run saved from this recording, so it is not saved again. Record a new run instead.',
        'conflict',
      );
  });
});

describe('LogGpsRun of a health store workout with its route', () => {
  const healthWorkout = { source: 'health_connect', importId: 'hc-1' } as const;

  it('is recorded with the store as its source and the workout id, judged as the same track uploaded by the app', () => {
    const events = given(runDecider)
      .when({ ...logGps, healthWorkout })
      .events();
    expect(events).toEqual([
      { type: 'RunRecorded', data: { ...recorded.data, source: 'health_connect', importId: 'hc-1' } },
    ]);
  });

  it('arriving more than 2 hours after the end, it is uploaded late: XP, no stake', () => {
    const late = given(runDecider)
      .when({ ...logGps, healthWorkout, now: started.add({ minutes: 30 + 121 }) })
      .events()[0]!;
    if (late.type !== 'RunRecorded' || late.data.verification.policyVersion !== 2) throw new Error('expected a run');
    expect(late.data.verification.reasons).toContain('uploaded_late');
    expect(late.data.verification.stakeDistanceKm).toBe(0);
    expect(late.data.verification.trustedDistanceKm).toBeGreaterThan(0);
  });

  it("refuses a workout id past an import id's limits", () => {
    given(runDecider)
      .when({ ...logGps, healthWorkout: { ...healthWorkout, importId: 'x'.repeat(101) } })
      .thenRejects('invalid_import_names', 'The imported activity has an invalid id or sport type', 'invalid');
  });
});

describe('ImportRun', () => {
  const importCommand: ImportRun = {
    type: 'ImportRun',
    runId: importedRunId('strava', '12345'),
    userId: 'u1',
    source: 'strava',
    importId: '12345',
    startedAt: started,
    distanceKm: 10.0049,
    durationSec: 3000,
    elapsedSec: 3100,
    positions: [],
    flags: { manual: false, trainer: false, flagged: false, sportType: 'Run' },
    notes: null,
    now,
  };

  it('records an imported activity under a run id derived from the service id', () => {
    const [event] = given(runDecider).when(importCommand).events();
    expect(importCommand.runId).toBe('strava-12345');
    expect(event).toMatchObject({
      type: 'RunRecorded',
      data: {
        runId: 'strava-12345',
        source: 'strava',
        importId: '12345',
        distanceKm: 10,
        elapsedSec: 3100,
        verification: { verdict: 'suspicious', reasons: ['no_gps_track'], stakeDistanceKm: 0, trustedDistanceKm: 10 },
      },
    });
  });

  it('refuses an activity that started more than 30 days ago (the backfill window)', () => {
    given(runDecider)
      .when({ ...importCommand, startedAt: now.subtract({ hours: 30 * 24 + 1 }) })
      .thenRejects('run_too_old', 'A run can only be logged within 30 days of its start');
  });

  it('a re-sync of an imported or deleted activity is a no-op', () => {
    const [event] = given(runDecider).when(importCommand).events();
    const history = [event!];
    given(runDecider, history).when(importCommand).then([]);
    const deleted: RunEvent = {
      type: 'RunDeleted',
      data: { runId: 'strava-12345', userId: 'u1', deletedAt: now.toString() },
    };
    given(runDecider, [...history, deleted])
      .when(importCommand)
      .then([]);
  });

  it('refuses an invalid distance or duration', () => {
    given(runDecider)
      .when({ ...importCommand, durationSec: 0 })
      .thenRejects('invalid_import', 'The imported activity has an invalid distance or duration');
    given(runDecider)
      .when({ ...importCommand, distanceKm: -1 })
      .thenRejects('invalid_import', 'The imported activity has an invalid distance or duration');
  });
});

describe('EditNotes and DeleteRun', () => {
  it('the owner edits notes; an unchanged note is a no-op', () => {
    given(runDecider, [recorded])
      .when({ type: 'EditNotes', userId: 'u1', notes: 'hills', now })
      .then([
        { type: 'RunNotesEdited', data: { runId: 'r1', userId: 'u1', notes: 'hills', editedAt: now.toString() } },
      ]);
    given(runDecider, [recorded]).when({ type: 'EditNotes', userId: 'u1', notes: 'easy', now }).then([]);
  });

  it('the owner deletes', () => {
    given(runDecider, [recorded])
      .when({ type: 'DeleteRun', userId: 'u1', now })
      .then([{ type: 'RunDeleted', data: { runId: 'r1', userId: 'u1', deletedAt: now.toString() } }]);
  });

  it('only the owner edits or deletes', () => {
    given(runDecider, [recorded])
      .when({ type: 'EditNotes', userId: 'u2', notes: 'mine', now })
      .thenRejects('not_run_owner', 'You can only change your own runs', 'forbidden');
    given(runDecider, [recorded])
      .when({ type: 'DeleteRun', userId: 'u2', now })
      .thenRejects('not_run_owner', 'You can only change your own runs', 'forbidden');
  });

  it('refuses unknown or deleted runs and over-long notes', () => {
    given(runDecider)
      .when({ type: 'DeleteRun', userId: 'u1', now })
      .thenRejects('run_not_found', 'Run not found', 'not_found');
    const deleted: RunEvent = { type: 'RunDeleted', data: { runId: 'r1', userId: 'u1', deletedAt: now.toString() } };
    given(runDecider, [recorded, deleted])
      .when({ type: 'EditNotes', userId: 'u1', notes: 'x', now })
      .thenRejects('run_not_found', 'Run not found');
    given(runDecider, [recorded])
      .when({ type: 'EditNotes', userId: 'u1', notes: 'x'.repeat(1001), now })
      .thenRejects('notes_too_long', 'Notes must be at most 1000 characters');
  });
});
