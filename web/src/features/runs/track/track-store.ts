import type { GpsPosition } from '../../../../../domain/run/geo.ts';
import { currentUserStorage } from '../../../lib/storage.ts';
import { thinTrack } from './route-projection.ts';

/**
 * The tracks of runs recorded on this device, kept by run id so the history and the run detail can draw them: the
 * API's run list does not carry tracks. Bounded: the newest MAX_RUNS runs, MAX_POINTS fixes each (plenty for a map,
 * splits and a pace chart), stored compactly as [latitude, longitude, seconds since the first fix]. They are the
 * signed-in runner's (where they run, so where they live): kept in their storage, removed when they sign out.
 */
export const MAX_RUNS = 20;
export const MAX_POINTS = 600;

type StoredFix = readonly [number, number, number];
interface StoredTrack {
  readonly savedAt: number;
  readonly start: number;
  readonly fixes: readonly StoredFix[];
}
type Store = Record<string, StoredTrack>;

function read(): Store {
  try {
    const value = JSON.parse(currentUserStorage().getItem('runTracks') ?? '{}') as unknown;
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Store) : {};
  } catch {
    return {};
  }
}

const round6 = (n: number) => Math.round(n * 1e6) / 1e6;

/** Keeps the track of a run saved from this device (the newest MAX_RUNS are kept). */
export function rememberTrack(runId: string, positions: readonly GpsPosition[], now = Date.now()): void {
  if (positions.length < 2) return;
  const fixes = thinTrack(positions, MAX_POINTS);
  const start = fixes[0]!.timestamp;
  const store = read();
  store[runId] = {
    savedAt: now,
    start,
    fixes: fixes.map((p) => [round6(p.latitude), round6(p.longitude), Math.round((p.timestamp - start) / 1000)]),
  };
  const newest = Object.entries(store)
    .sort(([, a], [, b]) => b.savedAt - a.savedAt)
    .slice(0, MAX_RUNS);
  try {
    currentUserStorage().setItem('runTracks', JSON.stringify(Object.fromEntries(newest)));
  } catch {
    // A full storage only means this track is not drawn later; the run itself is saved on the server.
  }
}

/** The stored track of a run, or null when this device did not record it. */
export function storedTrack(runId: string): GpsPosition[] | null {
  const track = read()[runId];
  if (!track || !Array.isArray(track.fixes)) return null;
  return track.fixes.map(([latitude, longitude, sec]) => ({
    latitude,
    longitude,
    timestamp: track.start + sec * 1000,
  }));
}

/** Drops the track of a deleted run. */
export function forgetTrack(runId: string): void {
  const store = read();
  if (!(runId in store)) return;
  delete store[runId];
  currentUserStorage().setItem('runTracks', JSON.stringify(store));
}
