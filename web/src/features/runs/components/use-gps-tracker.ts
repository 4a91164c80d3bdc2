import { useCallback, useEffect, useRef, useState } from 'react';
import { gpsDistanceKm } from '../../../../../domain/run/geo.ts';
import { runErrors } from '../../../../../domain/run/messages.ts';
import { trackingErrors } from '../../../../../domain/run/tracking.ts';
import type { GpsPositionJson } from '../../../lib/api-types.ts';
import { type GeoFailure, geolocation } from '../../../lib/geolocation.ts';
import { STORAGE_KEYS, readJson, storage, writeJson } from '../../../lib/storage.ts';

/** §3 GPS tracking state, kept locally so elapsed time, distance and points survive a reload (§4). */
export interface TrackingState {
  readonly isTracking: boolean;
  readonly startTime: number | null;
  readonly positions: readonly GpsPositionJson[];
}

/** What a stopped run hands to the save step. */
export interface FinishedRun {
  readonly started_at: string;
  readonly distance_km: number;
  readonly duration_sec: number;
  readonly positions: readonly GpsPositionJson[];
}

const IDLE: TrackingState = { isTracking: false, startTime: null, positions: [] };
const MIN_SECONDS = 60;
const MIN_POSITIONS = 2;

/** §8 messages for each way the device can refuse. */
const FAILURE_MESSAGES: Record<GeoFailure, string> = {
  denied: 'Location permission is required to track runs with GPS',
  unavailable: 'Unable to access location services. Please check your settings.',
  unsupported: 'GPS is not supported on this device',
};

/** The tracker's state machine: idle → tracking → stop (a run, or null when too short). */
export function useGpsTracker() {
  const [state, setState] = useState<TrackingState>(() => readJson(STORAGE_KEYS.gpsTracking, IDLE));
  const [now, setNow] = useState(() => Date.now());
  const [error, setError] = useState<string | null>(null);
  const stopWatch = useRef<(() => void) | null>(null);

  const persist = useCallback((next: TrackingState) => {
    if (next.isTracking) writeJson(STORAGE_KEYS.gpsTracking, next);
    else storage.removeItem(STORAGE_KEYS.gpsTracking);
    setState(next);
  }, []);

  const watch = useCallback(() => {
    stopWatch.current?.();
    stopWatch.current = geolocation().watch(
      (fix) =>
        setState((s) => {
          if (!s.isTracking) return s;
          const next = { ...s, positions: [...s.positions, fix] };
          writeJson(STORAGE_KEYS.gpsTracking, next);
          return next;
        }),
      (failure) => setError(FAILURE_MESSAGES[failure]),
    );
  }, []);

  // A reload during a run resumes watching; the elapsed counter ticks every second (§9).
  useEffect(() => {
    if (!state.isTracking) return;
    if (!stopWatch.current) watch();
    const id = setInterval(() => setNow(Date.now()), 1_000);
    return () => clearInterval(id);
  }, [state.isTracking, watch]);

  useEffect(() => () => stopWatch.current?.(), []);

  const start = useCallback(async () => {
    setError(null);
    if (state.isTracking) {
      setError(trackingErrors.alreadyActive().message);
      return;
    }
    try {
      const permission = await geolocation().requestPermission();
      if (permission !== 'granted') {
        setError(FAILURE_MESSAGES[permission]);
        return;
      }
      persist({ isTracking: true, startTime: Date.now(), positions: [] });
      setNow(Date.now());
      watch();
    } catch {
      persist(IDLE);
      setError('Failed to start GPS tracking');
    }
  }, [state.isTracking, persist, watch]);

  /** Stops and clears; the run only when it lasted 60 s with 2 positions (§4), else the §8 message. */
  const stop = useCallback((): FinishedRun | null => {
    stopWatch.current?.();
    stopWatch.current = null;
    const { startTime, positions } = state;
    persist(IDLE);
    if (startTime === null) return null;
    const durationSec = Math.round((Date.now() - startTime) / 1000);
    if (durationSec < MIN_SECONDS || positions.length < MIN_POSITIONS) {
      setError(runErrors.tooShort().message);
      return null;
    }
    return {
      started_at: new Date(startTime).toISOString(),
      distance_km: gpsDistanceKm(positions),
      duration_sec: durationSec,
      positions,
    };
  }, [state, persist]);

  const elapsedSec = state.startTime === null ? 0 : Math.max(0, Math.floor((now - state.startTime) / 1000));
  return { state, elapsedSec, distanceKm: gpsDistanceKm(state.positions), error, setError, start, stop };
}
