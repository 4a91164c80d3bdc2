import { createHash } from 'node:crypto';
import type { GpsPosition } from '../../../domain/run/geo.ts';
import { MAX_SAFE_INTEGER_ASCII, writeSafeInteger } from '../../../domain/shared/decimal-ascii.ts';
import { deterministicUuid } from '../deterministic-uuid.ts';

/*
 * The same recording is one run (issue "Trust by construction", item 9). A run made from a GPS recording — POST /runs
 * with its track, or a server-side session's finish — is named by the recording: its id, and so its stream
 * `run-<id>`, is derived from the user and the fingerprint of the track. Sending the recording again (a retry without
 * an Idempotency-Key, an offline queue re-sending, ten copies at once) therefore targets the same stream, and the
 * copies race on that stream's expected version (`no_stream`): one appends its RunRecorded, the others find the run
 * and answer with it. No check-then-insert, no table beside the log: the stream is the claim, as an import's stream
 * named by its activity id (domain/run/import-stream.ts) already is.
 *
 * What "the same recording" is: the same fixes in the same order, each its timestamp to the millisecond and its
 * coordinates to 1e-6 degrees (about 0.1 m, what a double's JSON round trip can blur, far below what two recordings
 * share). Nothing else: not the accuracy, not when the server received a fix, not the body's notes, claimed distance,
 * duration or start, so a resend with edited notes is still the run already saved. Any fix moved or retimed is
 * another recording (a track shifted to another week is one too; the run policy's track key, which leaves times out,
 * counts such a copy once: domain/run/count-once.ts). Per user: another runner's identical track is their own run,
 * which the run policy may doubt, never another user's run answered to them.
 */

/** Bump with any change of the canonical form below: runs already named keep their ids, new ones get new ones. */
const FORM = 'stridestake-recording-v1';

/** A coordinate as the fingerprint reads it: in millionths of a degree. */
const micro = (degrees: number) => Math.round(degrees * 1e6);

/** One fix as the fingerprint reads it: whole milliseconds, coordinates in millionths of a degree. */
function canonicalFix(fix: Pick<GpsPosition, 'timestamp' | 'latitude' | 'longitude'>): string {
  // A rounded -0 prints as 0 in a template, so a fix at -0.0000001° reads as the one at 0°.
  return `${Math.round(fix.timestamp)},${micro(fix.latitude)},${micro(fix.longitude)}`;
}

/** The most bytes one fix takes in the canonical text: a newline, three numbers (each signed, 16 digits), two commas. */
const FIX_BYTES = 1 + 3 * MAX_SAFE_INTEGER_ASCII + 2;

/**
 * The SHA-256 (hex) of a user's recording: the user id and every fix's timestamp and coordinates, in order.
 * Equal for equal recordings whatever else the fixes or the request carry; different when any fix changes.
 */
export function recordingFingerprint(
  userId: string,
  positions: readonly Pick<GpsPosition, 'timestamp' | 'latitude' | 'longitude'>[],
): string {
  const header = `${FORM}\u0000${userId}\u0000${positions.length}`;
  // The fixes' lines written as ASCII bytes (decimal-ascii.ts), the very bytes of the text canonicalFix makes, and
  // hashed after the header: without a string per number, about half of the fingerprint's time on a run's track.
  const fixes = Buffer.allocUnsafe(positions.length * FIX_BYTES);
  let end = 0;
  for (const fix of positions) {
    const timestamp = Math.round(fix.timestamp);
    const latitude = micro(fix.latitude);
    const longitude = micro(fix.longitude);
    // A number a template literal prints otherwise (NaN, beyond 2^53): no run holds one; the text as first written.
    if (!Number.isSafeInteger(timestamp) || !Number.isSafeInteger(latitude) || !Number.isSafeInteger(longitude))
      return fingerprintOfText(header, positions);
    fixes[end++] = 0x0a; // '\n'
    end = writeSafeInteger(fixes, end, timestamp);
    fixes[end++] = 0x2c; // ','
    end = writeSafeInteger(fixes, end, latitude);
    fixes[end++] = 0x2c;
    end = writeSafeInteger(fixes, end, longitude);
  }
  return createHash('sha256').update(header).update(fixes.subarray(0, end)).digest('hex');
}

/** The fingerprint from the canonical text itself, one string hashed once. */
function fingerprintOfText(
  header: string,
  positions: readonly Pick<GpsPosition, 'timestamp' | 'latitude' | 'longitude'>[],
): string {
  let text = header;
  for (const fix of positions) text += `\n${canonicalFix(fix)}`;
  return createHash('sha256').update(text).digest('hex');
}

/** The id of the run a user's recording makes (POST /runs, a GPS session's finish): the same recording, the same id. */
export function recordingRunId(
  userId: string,
  positions: readonly Pick<GpsPosition, 'timestamp' | 'latitude' | 'longitude'>[],
): string {
  return deterministicUuid('recording', recordingFingerprint(userId, positions));
}
