import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Goal, Run } from '../../../lib/api-types.ts';
import type { PendingRun } from '../offline/pending-run.ts';
import { sendAndSettle } from '../offline/send-pending.ts';
import type { FinishedRun } from '../components/use-gps-tracker.ts';
import { createRun } from './create-run.ts';
import { finishTracking } from './finish-tracking.ts';

/**
 * Saves a stopped run directly (demo mode, where nothing leaves the browser; a signed-in runner's run is kept on the
 * device first and sent with useSendKeptRun): a run tracked in a server session is finished there (the server already holds the fixes
 * uploaded live, which is what counts toward a stake); a run tracked while the server could not be reached is
 * uploaded whole (POST /runs).
 */
export async function saveRun(run: FinishedRun): Promise<{ data: Run; goal: Goal | null }> {
  if (run.session_id !== null) {
    const answer = await finishTracking({
      session_id: run.session_id,
      positions: run.positions,
      duration_sec: run.duration_sec,
    });
    if (answer.data === null)
      throw new Error('Failed to save run. Please check your internet connection and try again.');
    return { data: answer.data, goal: answer.goal };
  }
  return createRun({
    started_at: run.started_at,
    distance_km: run.distance_km,
    duration_sec: run.duration_sec,
    source: 'gps',
    gps_data: { positions: run.positions },
  });
}

/** What saving a run changes: goals, streak, XP and the feed too (§7 realtime: runs refresh goals and streak). */
const CHANGED_BY_A_RUN = ['runs', 'goals', 'streak', 'xp', 'me', 'feed'];

export function useSaveRun() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: saveRun,
    onSuccess: () => {
      for (const key of CHANGED_BY_A_RUN) client.invalidateQueries({ queryKey: [key] });
    },
  });
}

/**
 * Sends a run already kept on the device (features/runs/offline) with its own Idempotency-Key: saved, waiting for
 * the network (it stays kept and syncs later), or refused.
 */
export function useSendKeptRun() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (run: PendingRun) => sendAndSettle(run),
    // Sent even when the browser says it is offline: the attempt is what tells "waiting to sync" (react-query would
    // otherwise hold the mutation until the network is back, and the runner would see nothing).
    networkMode: 'always',
    onSuccess: (outcome) => {
      if (outcome.kind === 'saved') for (const key of CHANGED_BY_A_RUN) client.invalidateQueries({ queryKey: [key] });
    },
  });
}
