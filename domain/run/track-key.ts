import { MAX_SAFE_INTEGER_ASCII, writeSafeInteger } from '../shared/decimal-ascii.ts';
import type { GpsPosition } from './geo.ts';

const FNV_PRIME = 0x01000193;

/** FNV-1a, 32 bits, over `text` continuing from `hash` (an offset basis to start). */
function fnv1a(text: string, hash: number): number {
  let h = hash >>> 0;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, FNV_PRIME) >>> 0;
  }
  return h;
}

/** One fix's text (`;lat,lon`) as bytes: the separator, two signs, two numbers of up to 16 digits and a comma. */
const fixText = new Uint8Array(2 * MAX_SAFE_INTEGER_ASCII + 2);

/**
 * A fingerprint of a track's shape: its fixes' coordinates rounded to 1e-6 degrees (about 0.1 m), in order, hashed
 * to 64 bits. Times are left out on purpose, so the same track resubmitted with shifted timestamps (to move it to
 * another week) has the same key. Two real recordings never agree to 0.1 m on every fix, even on the same route, so
 * an equal key means the same recording sent again. Null for a track of fewer than 2 fixes.
 */
export function trackKey(positions: readonly GpsPosition[]): string | null {
  if (positions.length < 2) return null;
  // Both hashes of `lat,lon;lat,lon;…` fed fix by fix, without building the whole text: each fix's digits are written
  // as bytes (decimal-ascii.ts), the same characters its template literal would make.
  let first = 0x811c9dc5;
  let second = 0x050c5d1f;
  for (let i = 0; i < positions.length; i++) {
    const p = positions[i]!;
    const latitude = Math.round(p.latitude * 1e6);
    const longitude = Math.round(p.longitude * 1e6);
    if (!Number.isSafeInteger(latitude) || !Number.isSafeInteger(longitude)) {
      // Not a coordinate a run can hold (the deciders refuse it first): the text as a template literal prints it.
      const fix = `${i > 0 ? ';' : ''}${latitude},${longitude}`;
      first = fnv1a(fix, first);
      second = fnv1a(fix, second);
      continue;
    }
    let end = 0;
    if (i > 0) fixText[end++] = 0x3b; // ';'
    end = writeSafeInteger(fixText, end, latitude);
    fixText[end++] = 0x2c; // ','
    end = writeSafeInteger(fixText, end, longitude);
    for (let k = 0; k < end; k++) {
      first = Math.imul(first ^ fixText[k]!, FNV_PRIME) >>> 0;
      second = Math.imul(second ^ fixText[k]!, FNV_PRIME) >>> 0;
    }
  }
  const hex = (n: number) => n.toString(16).padStart(8, '0');
  return `${hex(first)}${hex(second)}`;
}
