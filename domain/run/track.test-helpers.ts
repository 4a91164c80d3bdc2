import type { GpsPosition } from './geo.ts';

/** Degrees of latitude per km on the 6371 km sphere. */
export const DEG_PER_KM = 360 / (2 * Math.PI * 6371);

/** A straight track north from (40, -74) at `kmh`, one fix every `stepSec` seconds, starting at `t0` (ms). */
export function track(kmh: number, fixes: number, stepSec = 5, accuracy = 8, t0 = 1_741_600_000_000): GpsPosition[] {
  return Array.from({ length: fixes }, (_, i) => ({
    latitude: 40 + ((kmh * stepSec * i) / 3600) * DEG_PER_KM,
    longitude: -74,
    timestamp: t0 + i * stepSec * 1000,
    accuracy,
  }));
}
