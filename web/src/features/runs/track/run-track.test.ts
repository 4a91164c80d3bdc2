import { beforeEach, describe, expect, it } from 'vitest';
import type { Run } from '../../../lib/api-types.ts';
import { installStorage, STORAGE_KEYS } from '../../../lib/storage.ts';
import { sourceLabel, trackOfRun } from './run-track.ts';
import { rememberTrack } from './track-store.ts';

const run = (id: string, extra: object = {}): Run =>
  ({
    id,
    started_at: '2026-11-26T17:00:00.000Z',
    distance_km: 1,
    duration_sec: 330,
    pace_sec_per_km: 330,
    source: 'gps',
    notes: null,
    ...extra,
  }) as Run;
const fixes = [
  { latitude: 51.5, longitude: -0.12, timestamp: 0 },
  { latitude: 51.501, longitude: -0.12, timestamp: 30_000 },
];

describe('trackOfRun', () => {
  beforeEach(() => {
    const map = new Map<string, string>();
    installStorage({
      getItem: (k) => map.get(k) ?? null,
      setItem: (k, v) => void map.set(k, v),
      removeItem: (k) => void map.delete(k),
    });
    // The tracks kept on the device are the signed-in runner's (lib/storage.ts).
    map.set(STORAGE_KEYS.session, JSON.stringify({ user: { id: 'user-a' } }));
  });

  it('draws the track the API sent with the run, else the one this device kept, else none', () => {
    expect(trackOfRun(run('sent', { gps_data: { positions: fixes } }))).toEqual(fixes);
    rememberTrack('kept', fixes);
    expect(trackOfRun(run('kept'))).toEqual(fixes);
    expect(trackOfRun(run('elsewhere'))).toBeNull();
  });

  it('names the source as its badge does', () => {
    expect(sourceLabel('gps')).toBe('GPS');
    expect(sourceLabel('strava')).toBe('Strava');
    expect(sourceLabel('polar')).toBe('polar');
  });
});
