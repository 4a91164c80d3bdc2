import { z } from 'zod';
import { gpsPositionSchema, gpsPositionsSchema, notesSchema, runDurationSchema } from './run.ts';
import { isoInstant } from './text.ts';

const limit = (max: number, fallback: number) =>
  z.coerce
    .number({ error: `limit must be a whole number from 1 to ${max}` })
    .int(`limit must be a whole number from 1 to ${max}`)
    .min(1, `limit must be a whole number from 1 to ${max}`)
    .max(max, `limit must be a whole number from 1 to ${max}`)
    .default(fallback);

/** GET /goals (§7: the app asks limit=100; §9: page limit 100). `status` narrows to one status. */
export const goalListQuerySchema = z.object({
  limit: limit(100, 100),
  status: z
    .enum(['upcoming', 'active', 'completed', 'missed', 'canceled'], { error: 'Unknown goal status' })
    .optional(),
});

/**
 * GET /runs (§7, §9): pages of 20 newest first (at most 100, the run history), `cursor` from the previous page's
 * `next_cursor`, `since` (ISO) for the 90-day heatmap.
 */
export const runListQuerySchema = z.object({
  limit: limit(100, 20),
  cursor: z.string().min(1, 'Invalid cursor').max(200, 'Invalid cursor').optional(),
  since: isoInstant('since must be an ISO date-time').optional(),
});

/** POST /runs/gps/start: nothing is needed; an empty or absent body is fine. */
export const gpsStartBodySchema = z.object({}).loose().default({});

/**
 * POST /runs/gps/positions: the fixes the tracker took since its last upload (every 10–30 s), for its open session.
 * A batch is small; a session holds at most MAX_SESSION_FIXES in all (domain/run/track-upload.ts).
 */
export const gpsPositionsBodySchema = z.object({
  session_id: z.uuid({ error: 'session_id must be the id POST /runs/gps/start answered' }),
  positions: z.array(gpsPositionSchema).max(1000, 'At most 1000 positions per upload'),
});

/**
 * POST /runs/gps/finish: the positions the tracker recorded (a killed app restores them from local storage), the
 * elapsed seconds when the client counted them (else the server's time since start), notes; `session_id` when the
 * client kept it (a stale client cannot finish a newer session).
 */
export const gpsFinishBodySchema = z.object({
  session_id: z.string().min(1).max(100).optional(),
  positions: gpsPositionsSchema.default([]),
  duration_sec: runDurationSchema.optional(),
  notes: notesSchema.default(null),
  /** The user canceled the run: end the session and save nothing (§4). */
  discard: z.boolean({ error: 'discard must be true or false' }).default(false),
});
