import { round2 } from '../shared/units.ts';

/** Earth radius for GPS distance (§9). */
export const EARTH_RADIUS_KM = 6371;

/** One GPS fix as the tracker records it. */
export interface GpsPosition {
  readonly latitude: number;
  readonly longitude: number;
  /** Epoch milliseconds (the Geolocation API's timestamp). */
  readonly timestamp: number;
  /** Horizontal accuracy in metres, when the device reports it. */
  readonly accuracy?: number | null;
  /**
   * Epoch milliseconds at which the server received the fix during a live GPS session. Set by the server only
   * (request schemas do not accept it); absent for tracks uploaded whole after the run and for imports.
   */
  readonly receivedAt?: number | null;
  /** Metres above sea level, when the recording has it (a watch file's altitude); the policy does not read it. */
  readonly elevation?: number | null;
}

const toRadians = (degrees: number) => (degrees * Math.PI) / 180;

/** Great-circle distance in km by the haversine formula; symmetric and never negative. */
export function haversineKm(
  a: Pick<GpsPosition, 'latitude' | 'longitude'>,
  b: Pick<GpsPosition, 'latitude' | 'longitude'>,
): number {
  const dLat = toRadians(b.latitude - a.latitude);
  const dLon = toRadians(b.longitude - a.longitude);
  const sinLat = Math.sin(dLat / 2);
  const sinLon = Math.sin(dLon / 2);
  const h = sinLat * sinLat + Math.cos(toRadians(a.latitude)) * Math.cos(toRadians(b.latitude)) * sinLon * sinLon;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** The length of a track in km, unrounded. */
export function trackLengthKm(positions: readonly GpsPosition[]): number {
  let total = 0;
  for (let i = 1; i < positions.length; i++) total += haversineKm(positions[i - 1]!, positions[i]!);
  return total;
}

/** The distance of a GPS run as stored: the track length rounded to 2 decimals (§5). */
export function gpsDistanceKm(positions: readonly GpsPosition[]): number {
  return round2(trackLengthKm(positions));
}
