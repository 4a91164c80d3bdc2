/**
 * Writes `value`, a safe integer, into `bytes` at `at` as ASCII exactly as `${value}` prints it: a minus sign for a
 * negative, no sign for -0, no leading zeros. Returns the offset after it. Fingerprints of GPS tracks (the run
 * policy's track key, a recording's id) print thousands of whole numbers per run; writing their digits straight into
 * bytes spares a string per number (about half of each fingerprint's time). Callers check Number.isSafeInteger first:
 * past 2^53 (or for NaN, ±Infinity) `${value}` is another text, which this does not write.
 */
export function writeSafeInteger(bytes: Uint8Array, at: number, value: number): number {
  let rest = value;
  let offset = at;
  if (rest < 0) {
    bytes[offset++] = 0x2d; // '-'
    rest = -rest;
  }
  let digits = 1;
  for (let power = 10; power <= rest; power *= 10) digits++;
  const end = offset + digits;
  // Least significant digit first, from the end back. Exact: below 2^53, rest / 10 never rounds up to the next whole.
  for (let i = end - 1; i >= offset; i--) {
    const tens = Math.floor(rest / 10);
    bytes[i] = 0x30 + (rest - tens * 10);
    rest = tens;
  }
  return end;
}

/** The most bytes writeSafeInteger writes: a sign and the 16 digits of 2^53 − 1. */
export const MAX_SAFE_INTEGER_ASCII = 17;
