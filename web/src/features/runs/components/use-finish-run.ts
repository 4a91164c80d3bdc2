import { useState } from 'react';
import { errorMessage } from '../../../lib/api-error.ts';
import type { Goal, Run } from '../../../lib/api-types.ts';
import { useAuth } from '../../../lib/auth.tsx';
import { useDemoMode } from '../../../lib/demo-mode.ts';
import { runQueueStore } from '../offline/run-queue.ts';
import { keepRun, SAVE_FAILED, syncPendingRuns } from '../offline/send-pending.ts';
import { useSaveRun, useSendKeptRun } from '../api/save-run.ts';
import type { useGpsTracker } from './use-gps-tracker.ts';

/** How long a start waits for a kept run of an earlier session to go first (ms). */
const SYNC_BEFORE_START_MS = 5_000;

/**
 * The tracker's save path. Stop: the run is kept on the device (IndexedDB, with its Idempotency-Key) before the
 * tracker is cleared, then sent; without a network it waits there ("Waiting to sync", features/runs/offline) and
 * is sent when the network is back, once. Demo mode saves directly (nothing leaves the browser). Start: a kept finish
 * of an earlier session is sent first, so its session is closed with all its fixes before a new one opens.
 */
export function useFinishRun(tracker: ReturnType<typeof useGpsTracker>) {
  const { session } = useAuth();
  const userId = session?.user.id ?? null;
  const demo = useDemoMode();
  const direct = useSaveRun();
  const send = useSendKeptRun();
  const [saved, setSaved] = useState<{ run: Run; goal: Goal | null } | null>(null);
  const [queued, setQueued] = useState(false);
  const [keeping, setKeeping] = useState(false);

  const finish = async () => {
    const run = tracker.stop();
    if (!run) return;
    setQueued(false);
    if (demo || userId === null) {
      tracker.clear();
      try {
        const answer = await direct.mutateAsync(run);
        setSaved({ run: answer.data, goal: answer.goal });
      } catch (error) {
        tracker.setError(errorMessage(error, SAVE_FAILED));
      }
      return;
    }
    setKeeping(true);
    try {
      let kept: Awaited<ReturnType<typeof keepRun>>;
      try {
        kept = await keepRun(run, userId);
      } catch {
        // Not kept: the tracker keeps the run (it survives a reload); Stop again tries again.
        tracker.setError('Could not keep the run on this phone. Tap Stop Run again.');
        return;
      }
      tracker.clear();
      const outcome = await send.mutateAsync(kept);
      if (outcome.kind === 'saved') setSaved({ run: outcome.data, goal: outcome.goal });
      else if (outcome.kind === 'waiting') setQueued(true);
      else tracker.setError(outcome.message);
    } finally {
      setKeeping(false);
    }
  };

  const start = async () => {
    setQueued(false);
    if (!demo && userId !== null) {
      const kept = await runQueueStore()
        .all()
        .catch(() => []);
      if (kept.some((r) => r.userId === userId && r.refusal === null && r.request.path === '/runs/gps/finish'))
        await Promise.race([
          syncPendingRuns(userId).catch(() => null),
          new Promise((resolve) => setTimeout(resolve, SYNC_BEFORE_START_MS)),
        ]);
    }
    await tracker.start();
  };

  return {
    finish,
    start,
    saving: keeping || direct.isPending || send.isPending,
    saved,
    clearSaved: () => setSaved(null),
    /** The last stopped run could not be sent and is waiting on the device. */
    queued,
  };
}
