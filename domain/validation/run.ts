import { z } from 'zod';
import { HEALTH_SOURCES } from '../run/events.ts';
import { healthRouteProblem } from '../run/health-route.ts';
import {
  EARLIEST_RUN_MS,
  LATEST_FIX_MS,
  MAX_FIX_ACCURACY_M,
  MAX_IMPORT_ID_LENGTH,
  MAX_RUN_KM,
  MAX_RUN_POSITIONS,
  MAX_RUN_SECONDS,
  runLimitErrors,
} from '../run/limits.ts';
import { MAX_NOTES_LENGTH } from '../run/policy.ts';
import { isoInstant, storableString } from './text.ts';

/** A number from `min` to `max`, with one message naming the field for every way to miss (type, range, NaN). */
function bounded(field: string, min: number, max: number, unit = '') {
  const message = `${field} must be a number from ${min} to ${max}${unit}`;
  return z.number({ error: message }).min(min, message).max(max, message);
}

const TIMESTAMP = 'timestamp must be epoch milliseconds between 2000 and 2100';

/**
 * One GPS fix (§3 gps_data.positions): timestamp in epoch milliseconds (2000–2100), accuracy in metres when known.
 * The bounds are what a fix can be (domain/run/limits.ts); the run decider checks them again.
 */
export const gpsPositionSchema = z.object({
  latitude: bounded('latitude', -90, 90),
  longitude: bounded('longitude', -180, 180),
  timestamp: z.number({ error: TIMESTAMP }).min(EARLIEST_RUN_MS, TIMESTAMP).lt(LATEST_FIX_MS, TIMESTAMP),
  accuracy: bounded('accuracy', 0, MAX_FIX_ACCURACY_M, ' m').nullable().optional(),
});

/** The positions of one run: at most MAX_RUN_POSITIONS. */
export const gpsPositionsSchema = z
  .array(gpsPositionSchema, { error: 'positions must be a list of GPS positions' })
  .max(MAX_RUN_POSITIONS, `A run can carry at most ${MAX_RUN_POSITIONS} GPS positions`);

/** Elapsed seconds of a run: 0 to 48 hours (the runs table holds a whole number of seconds). */
export const runDurationSchema = bounded('duration_sec', 0, MAX_RUN_SECONDS, ' (48 hours)');

/** Run notes: trimmed, at most 1000 characters, storable; blank becomes null. Absent is left to each schema. */
export const notesSchema = storableString({ error: 'notes must be text or null' })
  .trim()
  .max(MAX_NOTES_LENGTH, `Notes must be at most ${MAX_NOTES_LENGTH} characters`)
  .transform((s) => (s === '' ? null : s))
  .nullable();

/**
 * POST /runs (§7). The 60 s / 2 positions rule is the decider's, so the spec's one message (§8) comes from one
 * place; this schema checks shapes and bounds only. `distance_km` is the client's figure: the server recomputes it
 * from the track. A workout from the phone's health store (source `health_connect` / `apple_health`, the native
 * shell's import) names its `import_id`; without a route its distance is the store's, with one (`gps_data`, the
 * workout's route where the runner shares it) it is measured from the route as any upload's.
 */
export const runBodySchema = z
  .object({
    started_at: isoInstant('started_at must be an ISO date-time', {
      ms: EARLIEST_RUN_MS,
      message: runLimitErrors.tooEarly().message,
    }),
    distance_km: bounded('distance_km', 0, MAX_RUN_KM, ' km'),
    duration_sec: runDurationSchema,
    source: z
      .enum(['gps', ...HEALTH_SOURCES], { error: "source must be 'gps', 'health_connect' or 'apple_health'" })
      .default('gps'),
    /** A health store's workout id (its source's own): the same workout posted again is the same run. */
    import_id: storableString({ error: 'import_id must be text' })
      .trim()
      .min(1, 'import_id must not be empty')
      .max(MAX_IMPORT_ID_LENGTH, `import_id must be at most ${MAX_IMPORT_ID_LENGTH} characters`)
      .optional(),
    gps_data: z
      .object({ positions: gpsPositionsSchema }, { error: 'gps_data must be an object with positions' })
      .default({ positions: [] }),
    notes: notesSchema.default(null),
  })
  .superRefine((body, ctx) => {
    if (body.source === 'gps') {
      if (body.import_id !== undefined)
        ctx.addIssue({ code: 'custom', path: ['import_id'], message: 'import_id is only for a health store workout' });
      return;
    }
    if (body.import_id === undefined)
      ctx.addIssue({ code: 'custom', path: ['import_id'], message: 'A health store workout needs its import_id' });
    // A route (Health Connect's exercise route, HealthKit's workout route) is judged as a track uploaded after the
    // fact (health-route.ts, docs/run-policy.md); one that cannot be this workout's recording is refused whole.
    const problem = healthRouteProblem(Date.parse(body.started_at), body.duration_sec, body.gps_data.positions);
    if (problem !== null) ctx.addIssue({ code: 'custom', path: ['gps_data'], message: problem });
  });

/**
 * PATCH /runs/{id}: notes only. Absent leaves them as they are (`{}` changes nothing); null or blank clears them.
 */
export const patchRunBodySchema = z.object({ notes: notesSchema.optional() });

/** A parsed run body. */
export type RunBody = z.infer<typeof runBodySchema>;
