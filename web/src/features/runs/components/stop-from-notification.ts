import { useEffect, useRef } from 'react';
import { type Geolocation, geolocation } from '../../../lib/geolocation.ts';

/**
 * Hands each Stop tap from outside the page (the tracking notification's action, §4) to `finish`; answers an
 * unsubscribe. Nothing to subscribe to where the platform has no such notification (the web).
 */
export function subscribeStopRequests(source: Geolocation, finish: () => Promise<unknown>): () => void {
  return (
    source.onStopRequested?.(() => {
      // finish reports its own failures on the page (use-finish-run.ts); nothing is left to catch here.
      finish().catch(() => {});
    }) ?? (() => {})
  );
}

/** §4: Stop from the tracking notification stops and saves the run as the tracker's own Stop & Save does. */
export function useStopFromNotification(finish: () => Promise<unknown>): void {
  const latest = useRef(finish);
  latest.current = finish;
  useEffect(() => subscribeStopRequests(geolocation(), () => latest.current()), []);
}
