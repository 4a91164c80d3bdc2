import { api } from '../../../lib/api.ts';
import { ApiError } from '../../../lib/api-error.ts';
import { finishTracking } from './finish-tracking.ts';

/** POST /runs/gps/start: opens the server-side tracking session the tracker uploads its fixes to. */
export const startTracking = () =>
  api<{ data: { session_id: string; started_at: string } }>('/runs/gps/start', { method: 'POST', body: {} });

/**
 * Opens a session for a tracker that is idle here. The server refusing with 409 means a session of this user was
 * left open (the app was closed mid-run and lost its local state): it is finished with what reached the server —
 * saved as a run when it is long enough, else dropped — and a new one is opened.
 */
export async function openTrackingSession(): Promise<string> {
  try {
    return (await startTracking()).data.session_id;
  } catch (error) {
    if (!(error instanceof ApiError) || error.status !== 409) throw error;
    await finishTracking({ positions: [] }).catch((e: unknown) => {
      if (!(e instanceof ApiError) || e.status >= 500 || e.status === 0) throw e;
    });
    return (await startTracking()).data.session_id;
  }
}
