import { useEffect, useRef } from 'react';
import { ApiError } from '../../../lib/api-error.ts';
import { uploadPositions } from '../api/upload-positions.ts';
import { UPLOAD_EVERY_MS, type UploadResult, uploadPending } from './track-uploader.ts';
import type { TrackingState } from './use-gps-tracker.ts';

/**
 * While a session is open, sends the new fixes every 15 s. One round at a time; what fails (offline) waits for the
 * next round; a session the server closed (409: finished elsewhere) stops the uploads, and the run is then uploaded
 * whole when it ends.
 */
export function useLiveUpload(state: TrackingState, update: (change: (s: TrackingState) => TrackingState) => void) {
  const latest = useRef(state);
  latest.current = state;
  const busy = useRef(false);
  const sessionId = state.isTracking ? (state.sessionId ?? null) : null;

  useEffect(() => {
    if (sessionId === null) return;
    const send = async (batch: Parameters<typeof uploadPositions>[1]): Promise<UploadResult> => {
      try {
        await uploadPositions(sessionId, batch);
        return 'sent';
      } catch (error) {
        return error instanceof ApiError && error.status === 409 ? 'gone' : 'failed';
      }
    };
    const round = async () => {
      if (busy.current) return;
      busy.current = true;
      try {
        const { positions, uploaded = 0 } = latest.current;
        const result = await uploadPending({ positions, uploaded }, send);
        update((s) =>
          s.sessionId !== sessionId
            ? s
            : { ...s, uploaded: Math.max(s.uploaded ?? 0, result.uploaded), sessionId: result.gone ? null : sessionId },
        );
      } finally {
        busy.current = false;
      }
    };
    const id = setInterval(() => void round(), UPLOAD_EVERY_MS);
    return () => clearInterval(id);
  }, [sessionId, update]);
}
