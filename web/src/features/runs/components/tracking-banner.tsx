import { useEffect, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { plausibleDistanceKm } from '../../../../../domain/run/plausible-track.ts';
import { formatDistance } from '../../../../../domain/shared/units.ts';
import { useDistanceUnit } from '../../../lib/distance-unit.ts';
import { formatDuration } from '../../../lib/format.ts';
import { currentUserStorage } from '../../../lib/storage.ts';
import type { TrackingState } from './use-gps-tracker.ts';

const IDLE: TrackingState = { isTracking: false, startTime: null, positions: [] };

/**
 * The green banner of §2 while GPS tracking is active, on every signed-in page: elapsed time and distance in the
 * user's unit.
 * It reads the persisted tracking state each second, so it follows the tracker without sharing React state with it.
 * Tapping opens /run unless the user is already there.
 */
export function TrackingBanner() {
  const [state, setState] = useState<TrackingState>(() => currentUserStorage().readJson('gpsTracking', IDLE));
  const [now, setNow] = useState(() => Date.now());
  const location = useLocation();
  const unit = useDistanceUnit();
  const navigate = useNavigate();

  useEffect(() => {
    const id = setInterval(() => {
      setState(currentUserStorage().readJson('gpsTracking', IDLE));
      setNow(Date.now());
    }, 1_000);
    return () => clearInterval(id);
  }, []);

  if (!state.isTracking || state.startTime === null) return null;
  const elapsed = Math.max(0, Math.floor((now - state.startTime) / 1000));
  const onRun = location.pathname === '/run';
  return (
    <button
      type="button"
      className="tracking-banner"
      onClick={() => {
        if (!onRun) navigate('/run');
      }}
    >
      <span className="tracking-dot" aria-hidden="true" />
      <span>Tracking run</span>
      <strong>{formatDuration(elapsed)}</strong>
      <strong>{formatDistance(plausibleDistanceKm(state.positions), unit)}</strong>
    </button>
  );
}
