import { api } from '../../../lib/api.ts';
import type { Goal, GpsPositionJson, Run } from '../../../lib/api-types.ts';

/**
 * What POST /runs/gps/finish takes: the session (absent: the user's open one), its fixes (the server keeps what was
 * uploaded and adds the rest), the elapsed time.
 */
export interface FinishTrackingInput {
  readonly session_id?: string;
  readonly positions: readonly GpsPositionJson[];
  readonly duration_sec?: number;
  readonly discard?: boolean;
}

/** POST /runs/gps/finish: ends the session; answers the run (null when discarded) and the current goal. */
export const finishTracking = (input: FinishTrackingInput) =>
  api<{ data: Run | null; goal: Goal | null }>('/runs/gps/finish', { method: 'POST', body: input });
