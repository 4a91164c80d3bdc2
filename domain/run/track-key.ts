import type { GpsPosition } from './geo.ts';

/** FNV-1a, 32 bits, over `text` continuing from `hash` (an offset basis to start). */
function fnv1a(text: string, hash: number): number {
  let h = hash >>> 0;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

/**
 * A fingerprint of a track's shape: its fixes' coordinates rounded to 1e-6 degrees (about 0.1 m), in order, hashed
 * to 64 bits. Times are left out on purpose, so the same track resubmitted with shifted timestamps (to move it to
 * another week) has the same key. Two real recordings never agree to 0.1 m on every fix, even on the same route, so
 * an equal key means the same recording sent again. Null for a track of fewer than 2 fixes.
 */
export function trackKey(positions: readonly GpsPosition[]): string | null {
  if (positions.length < 2) return null;
  // Both hashes of `lat,lon;lat,lon;…` fed fix by fix, without building the whole text.
  let first = 0x811c9dc5;
  let second = 0x050c5d1f;
  for (let i = 0; i < positions.length; i++) {
    const p = positions[i]!;
    const fix = `${i > 0 ? ';' : ''}${Math.round(p.latitude * 1e6)},${Math.round(p.longitude * 1e6)}`;
    first = fnv1a(fix, first);
    second = fnv1a(fix, second);
  }
  const hex = (n: number) => n.toString(16).padStart(8, '0');
  return `${hex(first)}${hex(second)}`;
}
