import { type GpsPosition, gpsDistanceKm } from '../../../../domain/run/geo.ts';
import { type Verification, verifyRun } from '../../../../domain/run/verification.ts';
import type { DemoRun } from './demo-data.ts';

/** The recording moment of a demo run without one: a minute after its end, as a phone that saves at once. */
export function demoRecordedAt(run: Pick<DemoRun, 'started_at' | 'duration_sec' | 'recorded_at'>): string {
  return run.recorded_at ?? new Date(Date.parse(run.started_at) + (run.duration_sec + 60) * 1000).toISOString();
}

/**
 * A steady track for a run that has none (the sample runs, a run typed in): a fix every 5 s along a straight line
 * north, `distance_km` long over `duration_sec`, 5 m accurate. Its start point moves with the start time, so two
 * runs never share a track (the run policy counts a track once).
 */
export function demoTrack(run: DemoRun): GpsPosition[] {
  const startMs = Date.parse(run.started_at);
  const fixes = Math.max(2, Math.floor(run.duration_sec / 5) + 1);
  const degrees = (run.distance_km / (2 * Math.PI * 6371)) * 360;
  const longitude = -73.97 + ((startMs / 60_000) % 9973) * 1e-5;
  return Array.from({ length: fixes }, (_, i) => ({
    latitude: 40.78 + (degrees * i) / (fixes - 1),
    longitude,
    timestamp: startMs + Math.round((run.duration_sec * 1000 * i) / (fixes - 1)),
    accuracy: 5,
  }));
}

/**
 * The verdict the server's run policy (domain/run/verification.ts) gives a demo run, as it would on upload: from
 * the tracker's fixes when the run has them, else from a steady track at its distance and pace. So the demo's goals
 * and XP count runs as the server does (a walk, a car ride or a sparse track count as they would there).
 */
export function demoVerification(run: DemoRun, positions: readonly GpsPosition[] = []): Verification {
  const track = positions.length >= 2 ? positions : demoTrack(run);
  return verifyRun({
    startedAtMs: Date.parse(run.started_at),
    durationSec: run.duration_sec,
    elapsedSec: null,
    distanceKm: positions.length >= 2 ? gpsDistanceKm(positions) : run.distance_km,
    positions: track,
    importFlags: null,
    recordedAtMs: Date.parse(demoRecordedAt(run)),
  });
}
