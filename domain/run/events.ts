import { z } from 'zod';
import { entityId, isoInstant } from '../shared/event-schema.ts';
import type { GpsPosition } from './geo.ts';
import type { ImportFlags, Verification } from './verification.ts';

/**
 * Where imported runs come from: the connected running-activity service (§1), and the phone's health store through
 * the native shell (Health Connect on Android, Apple Health on iOS).
 */
export const ImportSource = z.enum(['strava', 'health_connect', 'apple_health']);
/** A connected service runs are imported from. */
export type ImportSource = z.infer<typeof ImportSource>;
/** The health stores a workout is posted from (POST /runs with one of these sources). */
export const HEALTH_SOURCES = ['health_connect', 'apple_health'] as const;
/** A health store a workout is posted from. */
export type HealthSource = (typeof HEALTH_SOURCES)[number];

/** Where a run came from (§3 source). */
export type RunSource = 'gps' | ImportSource;

/** A GPS fix as a run (or an upload of a live session) stores it (geo.ts GpsPosition). */
export const GpsFix = z.object({
  latitude: z.number(),
  longitude: z.number(),
  timestamp: z.number(),
  accuracy: z.number().nullable().optional(),
  receivedAt: z.number().nullable().optional(),
  elevation: z.number().nullable().optional(),
}) satisfies z.ZodType<GpsPosition>;

/**
 * The file a run was imported from (POST /runs/import): its format, the program that wrote it (GPX `creator`, TCX
 * `Author`, FIT manufacturer) and the device that recorded it (GPX `trk/src`, TCX `Creator`, FIT product), as the
 * file says; null when it says nothing. Kept so the runner (and a reviewer) sees where the track came from.
 */
export const RecordedWith = z.object({
  format: z.enum(['gpx', 'tcx', 'fit']),
  creator: z.string().nullable(),
  device: z.string().nullable(),
});
/** The file a run was imported from. */
export type RecordedWith = z.infer<typeof RecordedWith>;

const importFlags = z.object({
  manual: z.boolean(),
  trainer: z.boolean(),
  flagged: z.boolean(),
  sportType: z.string(),
}) satisfies z.ZodType<ImportFlags>;

const verdict = z.enum(['verified', 'suspicious', 'rejected']);
const reason = z.enum([
  'teleport_segment',
  'inaccurate_gps',
  'sparse_gps',
  'uploaded_late',
  'walking_pace',
  'manual_entry',
  'indoor_trainer',
  'no_gps_track',
  'cycling_speed',
  'fix_outside_run_time',
  'faster_than_world_record',
  'vehicle_distance',
  'flagged_by_provider',
  'not_a_run',
]);
const km = z.number().nonnegative();

/** The stored verdict of the run policy, of either version (verification.ts describes both). */
const verification = z.discriminatedUnion('policyVersion', [
  z.object({ verdict, reasons: z.array(reason).readonly(), trustedDistanceKm: km, policyVersion: z.literal(1) }),
  z.object({
    verdict,
    reasons: z.array(reason).readonly(),
    trustedDistanceKm: km,
    stakeDistanceKm: km,
    claimedDistanceKm: km,
    excluded: z
      .array(z.object({ reason, km: z.number(), sec: z.number(), fixes: z.number(), stretches: z.number() }))
      .readonly(),
    stakeStretches: z.array(z.object({ startMs: z.number(), endMs: z.number(), km: z.number() })).readonly(),
    trackKey: z.string().nullable(),
    policyVersion: z.literal(2),
  }),
]) satisfies z.ZodType<Verification>;

/**
 * The event fields that hold a GPS track (RunRecorded, TrackFixesReceived): most of a run's bytes. Readers of the
 * global log that never draw a map leave them out (ReadAllOptions.withoutFields).
 */
export const GPS_TRACK_FIELDS: readonly string[] = ['positions'];

/** A run as recorded, with the verdict it got when it was recorded. */
export const RunRecord = z.object({
  runId: entityId,
  userId: entityId,
  source: z.enum(['gps', ...ImportSource.options]),
  /** The service's activity id for an import, null for GPS. */
  importId: z.string().nullable(),
  startedAt: isoInstant,
  /** km, 2 decimals: computed from the track for GPS (the client's figure is not trusted), the service's for imports. */
  distanceKm: km,
  durationSec: z.number().nonnegative(),
  /**
   * An import's elapsed time in seconds (its `durationSec` is the moving time), which bounds the claimed time its
   * fixes must lie in. Null or absent for GPS runs (their duration is the elapsed time) and for older events.
   */
  elapsedSec: z.number().nonnegative().nullable().optional(),
  positions: z.array(GpsFix).readonly(),
  importFlags: importFlags.nullable(),
  notes: z.string().nullable(),
  /** Stored, not recomputed: a later policy change must not re-judge a settled week. */
  verification,
  /** The file the track was imported from (POST /runs/import); absent for every other run. */
  recordedWith: RecordedWith.nullable().optional(),
});
/** A run as recorded. */
export type RunRecord = z.infer<typeof RunRecord>;

/** A run was recorded, tracked in the app or imported. */
export const RunRecorded = z.object({
  type: z.literal('RunRecorded'),
  data: RunRecord.extend({ recordedAt: isoInstant }),
});
/** A run was recorded. */
export type RunRecorded = z.infer<typeof RunRecorded>;

/** The owner changed the notes. Carries the owner so the notes can be encrypted under the owner's key (docs/privacy.md). */
export const RunNotesEdited = z.object({
  type: z.literal('RunNotesEdited'),
  data: z.object({ runId: entityId, userId: entityId, notes: z.string().nullable(), editedAt: isoInstant }),
});
/** The owner changed the notes. */
export type RunNotesEdited = z.infer<typeof RunNotesEdited>;

/** The owner deleted the run; goal progress is recomputed without it. */
export const RunDeleted = z.object({
  type: z.literal('RunDeleted'),
  data: z.object({ runId: entityId, userId: entityId, deletedAt: isoInstant }),
});
/** The owner deleted the run. */
export type RunDeleted = z.infer<typeof RunDeleted>;

/** Every event of the run stream `run-<id>`: the run decider's schema. */
export const RunEvent = z.discriminatedUnion('type', [RunRecorded, RunNotesEdited, RunDeleted]);
/** Every event of the run stream. */
export type RunEvent = z.infer<typeof RunEvent>;
