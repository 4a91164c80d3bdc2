import { EARTH_RADIUS_KM } from '../../../../../domain/run/geo.ts';

/** A fix as the map needs it: where, no time. */
export interface LatLon {
  readonly latitude: number;
  readonly longitude: number;
}

/** A point in the drawing's coordinates (SVG user units: x to the right, y down). */
export interface Point {
  readonly x: number;
  readonly y: number;
}

/** The box a route is drawn into, with a margin kept free on every side (room for the start and finish markers). */
export interface Box {
  readonly width: number;
  readonly height: number;
  readonly padding: number;
}

/**
 * The smallest ground span (km) that fills a box: a track of a few metres (a runner standing still, GPS jitter) is
 * drawn as the dot it is, not blown up to fill the box.
 */
export const MIN_SPAN_KM = 0.05;

const toRadians = (degrees: number) => (degrees * Math.PI) / 180;

/**
 * A track projected into a box, no tile server needed: equirectangular around the track's centre latitude (at a
 * run's scale, a few km, the distortion is far below a pixel), scaled by one factor on both axes so the route keeps
 * its shape, and centred in the box. North is up. A single point (or a track that never moved) sits in the middle.
 */
export function projectRoute(fixes: readonly LatLon[], box: Box): Point[] {
  const track = fixes.filter((p) => Number.isFinite(p.latitude) && Number.isFinite(p.longitude));
  if (track.length === 0) return [];
  let minLat = Infinity;
  let maxLat = -Infinity;
  let minLon = Infinity;
  let maxLon = -Infinity;
  for (const p of track) {
    minLat = Math.min(minLat, p.latitude);
    maxLat = Math.max(maxLat, p.latitude);
    minLon = Math.min(minLon, p.longitude);
    maxLon = Math.max(maxLon, p.longitude);
  }
  const centreLat = (minLat + maxLat) / 2;
  const centreLon = (minLon + maxLon) / 2;
  const cosLat = Math.cos(toRadians(centreLat));
  // Ground kilometres east and north of the centre.
  const east = (lon: number) => toRadians(lon - centreLon) * cosLat * EARTH_RADIUS_KM;
  const north = (lat: number) => toRadians(lat - centreLat) * EARTH_RADIUS_KM;
  const spanX = east(maxLon) - east(minLon);
  const spanY = north(maxLat) - north(minLat);
  const innerW = Math.max(0, box.width - 2 * box.padding);
  const innerH = Math.max(0, box.height - 2 * box.padding);
  const k =
    Math.min(innerW, innerH) === 0
      ? 0
      : Math.min(innerW / Math.max(spanX, MIN_SPAN_KM), innerH / Math.max(spanY, MIN_SPAN_KM));
  const cx = box.width / 2;
  const cy = box.height / 2;
  return track.map((p) => ({ x: cx + east(p.longitude) * k, y: cy - north(p.latitude) * k }));
}

/** An SVG path through the points (one move, then lines), coordinates to 0.1 unit. */
export function pathData(points: readonly Point[]): string {
  return points.map((p, i) => `${i === 0 ? 'M' : 'L'}${p.x.toFixed(1)} ${p.y.toFixed(1)}`).join(' ');
}

/**
 * At most `max` of the fixes, evenly spread, first and last always kept: a thumbnail or a stored track needs no more
 * than a few hundred points.
 */
export function thinTrack<T>(track: readonly T[], max: number): T[] {
  if (track.length <= max || max < 2) return [...track];
  const step = (track.length - 1) / (max - 1);
  return Array.from({ length: max }, (_, i) => track[Math.round(i * step)]!);
}
