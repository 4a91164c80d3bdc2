import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useToast } from '../../../../components/toast.tsx';
import { useAuth } from '../../../../lib/auth.tsx';
import { useDemoMode } from '../../../../lib/demo-mode.ts';
import { syncPendingRuns } from '../send-pending.ts';

/** How often kept runs are tried again while the app is open (ms), besides app start and the `online` event. */
export const SYNC_EVERY_MS = 30_000;

/**
 * Sends the signed-in runner's kept runs (features/runs/offline) when the app starts, when the browser says the
 * network is back, and every 30 s; a run that got through refreshes what it changed (runs, goals, streak, XP, feed)
 * and says so. Rendered once, beside the routes.
 */
export function OfflineRunSync() {
  const { session } = useAuth();
  const userId = session?.user.id ?? null;
  const demo = useDemoMode();
  const client = useQueryClient();
  const toast = useToast();

  useEffect(() => {
    if (userId === null || demo) return;
    let live = true;
    // One round at a time from here, each told once: an online event or a tick during a round is not another round.
    let busy = false;
    const sync = () => {
      if (busy) return;
      busy = true;
      void syncPendingRuns(userId)
        .then(({ saved }) => {
          if (!live || saved === 0) return;
          for (const key of ['runs', 'goals', 'streak', 'xp', 'me', 'feed'])
            client.invalidateQueries({ queryKey: [key] });
          toast.show({ tone: 'success', title: saved === 1 ? 'Run synced' : `${saved} runs synced` });
        })
        .catch(() => {})
        .finally(() => {
          busy = false;
        });
    };
    sync();
    window.addEventListener('online', sync);
    const id = setInterval(sync, SYNC_EVERY_MS);
    return () => {
      live = false;
      window.removeEventListener('online', sync);
      clearInterval(id);
    };
  }, [userId, demo, client, toast]);
  return null;
}
