import { useCallback, useEffect, useRef, useState } from 'react';
import { plausibleDistanceKm } from '../../../../../domain/run/plausible-track.ts';
import { runErrors } from '../../../../../domain/run/messages.ts';
import { MIN_RUN_POSITIONS, MIN_RUN_SECONDS } from '../../../../../domain/run/policy.ts';
import { trackingErrors } from '../../../../../domain/run/tracking.ts';
import { round2 } from '../../../../../domain/shared/units.ts';
import { ApiError } from '../../../lib/api-error.ts';
import type { GpsPositionJson } from '../../../lib/api-types.ts';
import { type GeoFailure, geolocation } from '../../../lib/geolocation.ts';
import { currentUserStorage } from '../../../lib/storage.ts';
import { pendingRunId } from '../offline/pending-run.ts';
import { runQueueStore } from '../offline/run-queue.ts';
import { finishTracking } from '../api/finish-tracking.ts';
import { openTrackingSession } from '../api/start-tracking.ts';
import { useLiveUpload } from './use-live-upload.ts';

/** §3 GPS tracking state, kept locally so elapsed time, distance and points survive a reload (§4). */
export interface TrackingState {
  readonly isTracking: boolean;
  readonly startTime: number | null;
  readonly positions: readonly GpsPositionJson[];
  /** The server session the fixes go to while running; null when it could not be opened (offline at the start). */
  readonly sessionId?: string | null;
  /** How many of `positions` the server has received. */
  readonly uploaded?: number;
}

/** What a stopped run hands to the save step. */
export interface FinishedRun {
  readonly started_at: string;
  readonly distance_km: number;
  readonly duration_sec: number;
  readonly positions: readonly GpsPositionJson[];
  /** The session to finish; null: the run is uploaded whole (POST /runs). */
  readonly session_id: string | null;
}

const IDLE: TrackingState = { isTracking: false, startTime: null, positions: [], sessionId: null, uploaded: 0 };

/** §8 messages for each way the device can refuse. */
const FAILURE_MESSAGES: Record<GeoFailure, string> = {
  denied: 'Location permission is required to track runs with GPS',
  unavailable: 'Unable to access location services. Please check your settings.',
  unsupported: 'GPS is not supported on this device',
};

/**
 * The tracker's state machine: idle → tracking → stop (a run, or null when too short). Tracking opens a session on
 * the server and uploads the fixes as they come (use-live-upload.ts): the run policy counts toward a stake only a
 * track that reached the server while it was run. Offline at the start, the run is tracked here and uploaded whole.
 */
export function useGpsTracker() {
  const [state, setState] = useState<TrackingState>(() => currentUserStorage().readJson('gpsTracking', IDLE));
  const initial = useRef(state);
  const [now, setNow] = useState(() => Date.now());
  // A GPS failure reported while watching is the device's, and goes as soon as fixes arrive again; any other
  // message (too short, save failed) stays until the next action.
  const [error, setErrorState] = useState<{ readonly message: string; readonly fromGps: boolean } | null>(null);
  const setError = useCallback(
    (message: string | null) => setErrorState(message === null ? null : { message, fromGps: false }),
    [],
  );
  const stopWatch = useRef<(() => void) | null>(null);

  const persist = useCallback((next: TrackingState) => {
    // The runner's own: their fixes are removed at sign-out with the rest of their data (lib/storage.ts).
    if (next.isTracking) currentUserStorage().writeJson('gpsTracking', next);
    else currentUserStorage().removeItem('gpsTracking');
    setState(next);
  }, []);

  const update = useCallback((change: (s: TrackingState) => TrackingState) => {
    setState((s) => {
      if (!s.isTracking) return s;
      const next = change(s);
      currentUserStorage().writeJson('gpsTracking', next);
      return next;
    });
  }, []);

  useLiveUpload(state, update);

  const watch = useCallback(() => {
    stopWatch.current?.();
    stopWatch.current = geolocation().watch(
      (fix) => {
        // A fix arriving again clears an error the GPS itself raised (not one from start or save).
        setErrorState((e) => (e?.fromGps ? null : e));
        update((s) => ({ ...s, positions: [...s.positions, fix] }));
      },
      (failure) => setErrorState({ message: FAILURE_MESSAGES[failure], fromGps: true }),
    );
  }, [update]);

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
      let sessionId: string | null = null;
      try {
        sessionId = await openTrackingSession();
      } catch (e) {
        // Unreachable server (status 0): track here and upload the run whole when it ends. Anything else fails.
        if (!(e instanceof ApiError) || e.status !== 0) throw e;
      }
      persist({ isTracking: true, startTime: Date.now(), positions: [], sessionId, uploaded: 0 });
      setNow(Date.now());
      watch();
    } catch {
      persist(IDLE);
      setError('Failed to start GPS tracking');
    }
  }, [state.isTracking, persist, watch, setError]);

  /**
   * Stops watching and hands over the run, only when it lasted 60 s with 2 positions (§4), else the §8 message and
   * the tracker is cleared. A run is NOT cleared here: the caller keeps it on the device first (features/runs/offline)
   * and then calls `clear`, so a run is never in neither place (no network at the end of a run in a park).
   */
  const stop = useCallback((): FinishedRun | null => {
    stopWatch.current?.();
    stopWatch.current = null;
    const { startTime, positions, sessionId = null } = state;
    if (startTime === null) {
      persist(IDLE);
      return null;
    }
    const durationSec = Math.round((Date.now() - startTime) / 1000);
    if (durationSec < MIN_RUN_SECONDS || positions.length < MIN_RUN_POSITIONS) {
      persist(IDLE);
      // Nothing is saved; the server's session is closed too, so the next start is not refused.
      if (sessionId !== null)
        void finishTracking({ session_id: sessionId, positions: [], discard: true }).catch(() => {});
      setError(runErrors.tooShort().message);
      return null;
    }
    return {
      started_at: new Date(startTime).toISOString(),
      distance_km: round2(plausibleDistanceKm(positions)),
      duration_sec: durationSec,
      positions,
      session_id: sessionId,
    };
  }, [state, persist, setError]);

  /** Clears the tracker once its run is kept elsewhere (or saved). */
  const clear = useCallback(() => {
    stopWatch.current?.();
    stopWatch.current = null;
    persist(IDLE);
  }, [persist]);

  // The app closed between keeping a stopped run and clearing the tracker: the run is kept, so the tracker is done.
  useEffect(() => {
    const { isTracking, startTime } = initial.current;
    if (!isTracking || startTime === null) return;
    runQueueStore()
      .get(pendingRunId(startTime))
      .then((kept) => {
        if (kept) clear();
      })
      .catch(() => {});
  }, [clear]);

  const elapsedSec = state.startTime === null ? 0 : Math.max(0, Math.floor((now - state.startTime) / 1000));
  return {
    state,
    elapsedSec,
    // The run policy's own fix rules (accuracy, spikes, jumps): the distance shown is the one the server counts.
    distanceKm: plausibleDistanceKm(state.positions),
    error: error?.message ?? null,
    setError,
    start,
    stop,
    clear,
  };
}
