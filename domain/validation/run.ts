import { z } from 'zod';
import { MAX_NOTES_LENGTH } from '../run/messages.ts';

/** One GPS fix (§3 gps_data.positions): timestamp in epoch milliseconds, accuracy in metres when known. */
export const gpsPositionSchema = z.object({
  latitude: z.number().min(-90).max(90),
  longitude: z.number().min(-180).max(180),
  timestamp: z.number(),
  accuracy: z.number().nonnegative().nullable().optional(),
});

const notesSchema = z
  .string()
  .trim()
  .max(MAX_NOTES_LENGTH, `Notes must be at most ${MAX_NOTES_LENGTH} characters`)
  .transform((s) => (s === '' ? null : s))
  .nullable()
  .default(null);

/**
 * POST /runs (§7). The 60 s / 2 positions rule is the decider's, so the spec's one message (§8) comes from one
 * place; this schema checks shapes only. `distance_km` is the client's figure: the server recomputes it from the
 * track.
 */
export const runBodySchema = z.object({
  started_at: z.iso.datetime({ offset: true, error: 'started_at must be an ISO date-time' }),
  distance_km: z.number().nonnegative(),
  duration_sec: z.number().nonnegative(),
  source: z.literal('gps').default('gps'),
  gps_data: z.object({ positions: z.array(gpsPositionSchema).max(100_000) }).default({ positions: [] }),
  notes: notesSchema,
});

/** PATCH /runs/{id}: notes only. */
export const patchRunBodySchema = z.object({ notes: notesSchema });

/** A parsed run body. */
export type RunBody = z.infer<typeof runBodySchema>;
