import { api } from '../../../lib/api.ts';
import type { GpsPositionJson } from '../../../lib/api-types.ts';

/** POST /runs/gps/positions: the fixes taken since the last upload, for the open session. */
export const uploadPositions = (sessionId: string, positions: readonly GpsPositionJson[]) =>
  api<{ data: { session_id: string; received: number } }>('/runs/gps/positions', {
    method: 'POST',
    body: { session_id: sessionId, positions },
  });
