import { useEffect, useState } from 'react';
import type { PendingRun } from './pending-run.ts';
import { onRunQueueChange, runQueueStore } from './run-queue.ts';

/** `userId`'s runs kept on this device, oldest first, following every change of the queue. */
export function usePendingRuns(userId: string | null): readonly PendingRun[] {
  const [runs, setRuns] = useState<readonly PendingRun[]>([]);
  useEffect(() => {
    if (userId === null) {
      setRuns([]);
      return;
    }
    let live = true;
    const load = () => {
      runQueueStore()
        .all()
        .then((all) => {
          if (!live) return;
          setRuns(all.filter((r) => r.userId === userId).sort((a, b) => a.startedAt.localeCompare(b.startedAt)));
        })
        .catch(() => {});
    };
    load();
    const stop = onRunQueueChange(load);
    return () => {
      live = false;
      stop();
    };
  }, [userId]);
  return runs;
}
