import { useEffect, useRef } from 'react';
import type { GpsPosition } from '../../../../../domain/run/geo.ts';
import { rememberTrack } from '../track/track-store.ts';
import type { TrackingState } from './use-gps-tracker.ts';

/**
 * The fixes of the run just tracked, for its summary map: the tracker clears its state when the run stops, so the
 * last fixes seen while tracking are held here; once the run is saved (`savedRunId`) they are kept on this device
 * under its id for the history and the run detail (track-store.ts).
 */
export function useLastTrack(state: TrackingState, savedRunId: string | null): readonly GpsPosition[] {
  const last = useRef<readonly GpsPosition[]>([]);
  if (state.isTracking && state.positions.length > 0) last.current = state.positions;
  useEffect(() => {
    if (savedRunId !== null) rememberTrack(savedRunId, last.current);
  }, [savedRunId]);
  return last.current;
}
