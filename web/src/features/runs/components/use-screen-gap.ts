import { useEffect, useRef, useState } from 'react';
import { longestGapMs, toldGapMinutes } from '../track/screen-gap.ts';

/** What the gap watcher needs of the tracker: whether a run is on, and the fixes' times. */
interface TrackedFixes {
  readonly isTracking: boolean;
  readonly positions: readonly { readonly timestamp: number }[];
}

/**
 * Watches the page being hidden during a run (screen off, another app in front) and, on return, tells how long the
 * GPS paused (issue 24.2): the minutes of the longest stretch without a fix while hidden, or null when nothing was
 * lost. The notice stays until the next hide or the end of the run.
 */
export function useScreenGap(tracked: TrackedFixes): number | null {
  const [minutes, setMinutes] = useState<number | null>(null);
  const latest = useRef(tracked);
  latest.current = tracked;
  const hiddenAt = useRef<number | null>(null);

  useEffect(() => {
    if (!tracked.isTracking) {
      setMinutes(null);
      hiddenAt.current = null;
      return;
    }
    const onVisibility = () => {
      if (document.visibilityState === 'hidden') {
        hiddenAt.current = Date.now();
        return;
      }
      const since = hiddenAt.current;
      hiddenAt.current = null;
      if (since === null || !latest.current.isTracking) return;
      const times = latest.current.positions.map((p) => p.timestamp);
      setMinutes(toldGapMinutes(longestGapMs(since, Date.now(), times)));
    };
    // Hidden already when the run resumed (a reload in the background): counted from now.
    if (document.visibilityState === 'hidden') hiddenAt.current = Date.now();
    document.addEventListener('visibilitychange', onVisibility);
    return () => document.removeEventListener('visibilitychange', onVisibility);
  }, [tracked.isTracking]);

  return minutes;
}
