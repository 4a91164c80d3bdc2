import { useEffect } from 'react';

/** The part of the Screen Wake Lock API used here (not in every browser: Safari before 16.4, Firefox before 126). */
interface WakeLockSentinelLike {
  readonly released: boolean;
  release(): Promise<void>;
}
interface WakeLockLike {
  request(type: 'screen'): Promise<WakeLockSentinelLike>;
}

const wakeLockApi = (): WakeLockLike | null =>
  (navigator as Navigator & { wakeLock?: WakeLockLike }).wakeLock ?? null;

/**
 * Keeps the screen awake while `active` (issue 24.2): a browser stops GPS for a page whose screen turns off, so a
 * web run is tracked only while the screen stays on. The browser drops the lock when the page is hidden; it is asked
 * for again when the page is shown. Released when tracking stops. Where the API is missing or refuses (low battery,
 * a policy), nothing breaks: the gap notice says what was lost (use-screen-gap.ts).
 */
export function useScreenWakeLock(active: boolean): void {
  useEffect(() => {
    const api = wakeLockApi();
    if (!active || !api) return;
    let sentinel: WakeLockSentinelLike | null = null;
    let live = true;
    const acquire = () => {
      if (document.visibilityState !== 'visible' || (sentinel && !sentinel.released)) return;
      api.request('screen').then(
        (got) => {
          if (live) sentinel = got;
          else void got.release().catch(() => {});
        },
        () => {},
      );
    };
    const onVisibility = () => {
      if (document.visibilityState === 'visible') acquire();
    };
    acquire();
    document.addEventListener('visibilitychange', onVisibility);
    return () => {
      live = false;
      document.removeEventListener('visibilitychange', onVisibility);
      if (sentinel && !sentinel.released) void sentinel.release().catch(() => {});
      sentinel = null;
    };
  }, [active]);
}
