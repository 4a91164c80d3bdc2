import { z } from 'zod';
import { AppealReason } from '../stake/appeal-events.ts';
import { pathIdSchema, storableString } from './text.ts';

/** The reasons the appeal form offers, in its order. */
export const APPEAL_REASONS = AppealReason.options;

/**
 * POST /stakes/{id}/appeal (issue 25): why the week was missed, the runner's words, and the runs of that week that
 * show it (a run logged late or with gaps, a watch file imported, a health workout). At most 20 runs.
 */
export const appealBodySchema = z.strictObject({
  reason: z.enum(APPEAL_REASONS, {
    error: 'reason: please choose uploaded_late, no_signal, gps_gap, watch_file, health_workout or vouch',
  }),
  note: storableString()
    .max(500, { error: 'note: at most 500 characters' })
    .transform((s) => s.trim())
    .default(''),
  run_ids: z.array(pathIdSchema).max(20, { error: 'run_ids: at most 20 runs' }).default([]),
});

/** A parsed appeal. */
export type AppealBody = z.infer<typeof appealBodySchema>;
