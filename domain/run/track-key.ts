import type { GpsPosition } from './geo.ts';

/** FNV-1a over a string, 32 bits, from a given offset basis. */
function fnv1a(text: string, basis: number): number {
  let hash = basis >>> 0;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

/**
 * A fingerprint of a track's shape: its fixes' coordinates rounded to 1e-6 degrees (about 0.1 m), in order, hashed
 * to 64 bits. Times are left out on purpose, so the same track resubmitted with shifted timestamps (to move it to
 * another week) has the same key. Two real recordings never agree to 0.1 m on every fix, even on the same route, so
 * an equal key means the same recording sent again. Null for a track of fewer than 2 fixes.
 */
export function trackKey(positions: readonly GpsPosition[]): string | null {
  if (positions.length < 2) return null;
  const text = positions.map((p) => `${Math.round(p.latitude * 1e6)},${Math.round(p.longitude * 1e6)}`).join(';');
  const hex = (n: number) => n.toString(16).padStart(8, '0');
  return `${hex(fnv1a(text, 0x811c9dc5))}${hex(fnv1a(text, 0x050c5d1f))}`;
}
