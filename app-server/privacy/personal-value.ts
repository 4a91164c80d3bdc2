/*
 * How a personal field's value is written before it is sealed (protected-event-store.ts), and read back after.
 *
 * Most values are JSON text, as they always were. A GPS track — an array of fixes, each an object of the same keys
 * in the same order, every value a finite number — is written in columns of 64-bit floats instead: printing a run's
 * 540 fixes as JSON took 190 µs of the API's one thread on every POST /runs, and reading it back as much again on
 * every read of the track, where the columns take a few microseconds either way and compress as small. The two are
 * told apart by the first byte: a column track starts with 0x00, which no JSON text starts with, so every value
 * sealed before this reads as it did. Either way the value read back is the one JSON would give: -0 reads as 0.
 *
 * Layout of a column track: 0x00, a format byte (1), the number of keys (one byte), each key as its UTF-8 length
 * (one byte) and bytes, the number of fixes (uint32, little-endian), zero padding to a multiple of 8, then one
 * column of float64 per key (little-endian), each as long as the number of fixes.
 */

import { isPlainRecord } from '../../domain/shared/plain-record.ts';

const COLUMNS = 0x00;
const FORMAT = 1;
/** More keys than a fix has, or longer ones, are not a track: such values go as JSON. */
const MAX_KEYS = 16;
const MAX_KEY_BYTES = 64;

/** The bytes to seal for `value`: its JSON text (as a string), or a track in columns. */
export function personalBytes(value: unknown): string | Uint8Array {
  return trackInColumns(value) ?? JSON.stringify(value);
}

/** The value `personalBytes` wrote (a column track, or JSON text of any age). */
export function personalValue(bytes: Buffer): unknown {
  if (bytes.length > 0 && bytes[0] === COLUMNS) return trackFromColumns(bytes);
  return JSON.parse(bytes.toString('utf8'));
}

function trackInColumns(value: unknown): Uint8Array | null {
  if (!Array.isArray(value) || value.length === 0 || !isPlainRecord(value[0])) return null;
  const keys = Object.keys(value[0]);
  // An own `__proto__` is a key JSON.parse makes and an assignment does not: such a value goes as JSON.
  if (keys.length === 0 || keys.length > MAX_KEYS || keys.includes('__proto__')) return null;
  const keyBytes = keys.map((key) => Buffer.from(key, 'utf8'));
  if (keyBytes.some((b) => b.length > MAX_KEY_BYTES)) return null;
  const n = value.length;
  const start = Math.ceil((3 + keyBytes.reduce((sum, b) => sum + 1 + b.length, 0) + 4) / 8) * 8;
  const bytes = Buffer.alloc(start + 8 * n * keys.length);
  for (let i = 0; i < n; i++) {
    const fix = value[i];
    if (!isPlainRecord(fix)) return null;
    const own = Object.keys(fix);
    if (own.length !== keys.length) return null;
    for (let k = 0; k < keys.length; k++) {
      if (own[k] !== keys[k]) return null;
      const x = fix[keys[k]!];
      if (typeof x !== 'number' || !Number.isFinite(x)) return null;
      // JSON has no -0: the value reads back as 0, as it would from JSON text.
      bytes.writeDoubleLE(x === 0 ? 0 : x, start + 8 * (k * n + i));
    }
  }
  let at = 0;
  bytes[at++] = COLUMNS;
  bytes[at++] = FORMAT;
  bytes[at++] = keys.length;
  for (const key of keyBytes) {
    bytes[at++] = key.length;
    key.copy(bytes, at);
    at += key.length;
  }
  bytes.writeUInt32LE(n, at);
  return bytes;
}

function trackFromColumns(bytes: Buffer): unknown[] {
  if (bytes[1] !== FORMAT) throw new Error('Unreadable personal value');
  let at = 2;
  const keyCount = bytes[at++]!;
  const keys: string[] = [];
  for (let k = 0; k < keyCount; k++) {
    const length = bytes[at++]!;
    keys.push(bytes.toString('utf8', at, at + length));
    at += length;
  }
  const n = bytes.readUInt32LE(at);
  const start = Math.ceil((at + 4) / 8) * 8;
  if (bytes.length !== start + 8 * n * keyCount) throw new Error('Unreadable personal value');
  const track = new Array<Record<string, number>>(n);
  for (let i = 0; i < n; i++) {
    const fix: Record<string, number> = {};
    for (let k = 0; k < keyCount; k++) fix[keys[k]!] = bytes.readDoubleLE(start + 8 * (k * n + i));
    track[i] = fix;
  }
  return track;
}
