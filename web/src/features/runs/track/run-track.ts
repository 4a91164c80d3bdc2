import type { GpsPosition } from '../../../../../domain/run/geo.ts';
import type { Run, RunWithTrack } from '../../../lib/api-types.ts';
import { storedTrack } from './track-store.ts';

/**
 * The track to draw for a run: the one the API sent with it (GET /runs/{id}), else the one this device kept when
 * it saved the run (track-store.ts), else null.
 */
export function trackOfRun(run: Run | RunWithTrack): readonly GpsPosition[] | null {
  const sent = 'gps_data' in run ? run.gps_data?.positions : undefined;
  if (Array.isArray(sent) && sent.length > 1) return sent;
  return storedTrack(run.id);
}

const SOURCE_LABELS: Record<string, string> = { gps: 'GPS', strava: 'Strava', garmin: 'Garmin' };

/** The run's source as the badge shows it: 'GPS', or the connected service's name. */
export const sourceLabel = (source: string): string => SOURCE_LABELS[source] ?? source;
