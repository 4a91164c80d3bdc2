import { type GpsPosition, haversineKm, trackLengthKm } from './geo.ts';
import { accurateFixes, cleanFixes, isJumpOf } from './plausible-track.ts';
import { SPEED_WINDOWS_SEC, verificationLimits as limits } from './verification-policy.ts';
import { worldRecordSpeedKmh } from './world-records.ts';

/** The stretch between two consecutive kept fixes, with what the policy found about it. */
export interface Segment {
  /** Epoch ms of its two fixes. */
  readonly startMs: number;
  readonly endMs: number;
  readonly km: number;
  /** dense: fixes close enough in time to prove the distance; gap: too far apart; jump: faster than a human. */
  readonly kind: 'dense' | 'gap' | 'jump';
  /** A fix of it reached the server too late to count as live evidence. */
  readonly late: boolean;
  /** Inside a window whose average speed beats the world record for that window's duration. */
  readonly tooFast: boolean;
  /** Inside a window of 10 minutes or more held at cycling speed. */
  readonly cycling: boolean;
}

/** The track after each stage of reading, with the fixes each stage dropped. */
export interface TrackReading {
  /** Length of the track as submitted (km). */
  readonly rawKm: number;
  /** Length once fixes outside the claimed time are dropped, then inaccurate ones, then jumps and disorder. */
  readonly inTimeKm: number;
  readonly accurateKm: number;
  readonly cleanKm: number;
  readonly dropped: { readonly outsideTime: number; readonly inaccurate: number; readonly jumps: number };
  readonly segments: readonly Segment[];
}

/** What the reader needs besides the fixes. */
export interface TrackClaim {
  readonly claimedStartMs: number;
  readonly claimedEndMs: number;
  /** Whether this fix reached the server too late to be live evidence. */
  readonly isLate: (fix: GpsPosition) => boolean;
}

const kmh = (km: number, sec: number) => (sec > 0 ? (km / sec) * 3600 : km > 0 ? Number.POSITIVE_INFINITY : 0);

/**
 * Just under the slowest record speed of any duration (worldRecordSpeedKmh never goes below its longest record's; the
 * margin covers the last bit of its interpolation's rounding). A window no faster than this beats no record, so the
 * record for its duration is not worked out: most windows of a run are far below it.
 */
const SLOWEST_RECORD_KMH = worldRecordSpeedKmh(Number.POSITIVE_INFINITY) * (1 - 1e-9);

/**
 * Marks the segments covered by a window whose average speed breaks a limit: for each window length, each start
 * fix's window ends at the first fix at least that long after it. Jumps add no distance (they are thrown out on
 * their own); gaps add their straight-line distance, a lower bound of the ground covered. Ranges are marked with a
 * difference array, so the whole check is O(fixes × windows).
 */
function markFastWindows(
  fixes: readonly GpsPosition[],
  kinds: readonly Segment['kind'][],
  segmentKm: readonly number[],
) {
  const n = kinds.length;
  const cumKm = [0];
  for (let i = 0; i < n; i++) {
    cumKm.push(cumKm[i]! + (kinds[i] === 'jump' ? 0 : segmentKm[i]!));
  }
  const tooFast = new Array<number>(n + 1).fill(0);
  const cycling = new Array<number>(n + 1).fill(0);
  const spanSec = n > 0 ? (fixes[n]!.timestamp - fixes[0]!.timestamp) / 1000 : 0;
  const windows = [...SPEED_WINDOWS_SEC.filter((w) => w < spanSec), spanSec].filter(
    (w) => w >= limits.minSpeedWindowSec,
  );
  for (const window of windows) {
    let j = 0;
    for (let i = 0; i < n; i++) {
      if (j <= i) j = i + 1;
      while (j <= n && (fixes[j]!.timestamp - fixes[i]!.timestamp) / 1000 < window) j++;
      if (j > n) break;
      const sec = (fixes[j]!.timestamp - fixes[i]!.timestamp) / 1000;
      const speed = kmh(cumKm[j]! - cumKm[i]!, sec);
      if (speed > SLOWEST_RECORD_KMH && speed > worldRecordSpeedKmh(sec)) {
        tooFast[i]!++;
        tooFast[j]!--;
      }
      if (sec >= limits.cyclingWindowSec && speed > limits.cyclingSpeedKmh) {
        cycling[i]!++;
        cycling[j]!--;
      }
    }
  }
  // The running sums, read back as each segment's marks (in place: index i of each holds segment i's).
  let fast = 0;
  let cycle = 0;
  for (let i = 0; i < n; i++) {
    fast += tooFast[i]!;
    cycle += cycling[i]!;
    tooFast[i] = fast;
    cycling[i] = cycle;
  }
  return { tooFast, cycling };
}

/**
 * Reads a GPS track against its claim (pure): drops fixes outside the claimed time, fixes less accurate than the
 * limit, fixes out of time order and single-fix spikes, then classifies what is left segment by segment and holds
 * every window of the track against the world records and cycling speed. Each stage only removes fixes, so by the
 * triangle inequality each stage's length is at most the previous one's.
 */
export function readTrack(positions: readonly GpsPosition[], claim: TrackClaim): TrackReading {
  const tolMs = limits.fixTimeToleranceSec * 1000;
  const inTime = positions.filter(
    (p) => p.timestamp >= claim.claimedStartMs - tolMs && p.timestamp <= claim.claimedEndMs + tolMs,
  );
  // The fix rules the live tracker applies too (plausible-track.ts), so it shows the distance counted here.
  const accurate = accurateFixes(inTime);
  const clean = cleanFixes(accurate);
  // Each segment's length once, for the speed windows and the segments both.
  const segmentKm = clean.slice(1).map((b, i) => haversineKm(clean[i]!, b));
  const kinds = clean.slice(1).map((b, i): Segment['kind'] => {
    const a = clean[i]!;
    if (isJumpOf(segmentKm[i]!, a, b)) return 'jump';
    return (b.timestamp - a.timestamp) / 1000 > limits.maxDenseGapSec ? 'gap' : 'dense';
  });
  const speedMarks = markFastWindows(clean, kinds, segmentKm);
  const segments = kinds.map((kind, i): Segment => {
    const a = clean[i]!;
    const b = clean[i + 1]!;
    return {
      startMs: a.timestamp,
      endMs: b.timestamp,
      km: segmentKm[i]!,
      kind,
      late: claim.isLate(a) || claim.isLate(b),
      tooFast: speedMarks.tooFast[i]! > 0,
      cycling: speedMarks.cycling[i]! > 0,
    };
  });
  // The clean track's length is its segments' lengths summed in order, as trackLengthKm sums them. A stage that
  // dropped nothing kept the same fixes in the same order (each stage only removes): the same length, not summed again.
  let cleanKm = 0;
  for (const km of segmentKm) cleanKm += km;
  const rawKm = clean.length === positions.length ? cleanKm : trackLengthKm(positions);
  const inTimeKm = inTime.length === positions.length ? rawKm : trackLengthKm(inTime);
  const accurateKm = accurate.length === inTime.length ? inTimeKm : trackLengthKm(accurate);
  return {
    rawKm,
    inTimeKm,
    accurateKm,
    cleanKm,
    dropped: {
      outsideTime: positions.length - inTime.length,
      inaccurate: inTime.length - accurate.length,
      jumps: accurate.length - clean.length,
    },
    segments,
  };
}

/** Whether a segment's distance counts for XP and free goals: plausible running, even across a short gap. */
export function countsForXp(segment: Segment): boolean {
  if (segment.kind === 'jump' || segment.tooFast) return false;
  if (segment.kind === 'dense') return true;
  const sec = (segment.endMs - segment.startMs) / 1000;
  return sec <= limits.maxCreditedGapSec && kmh(segment.km, sec) <= worldRecordSpeedKmh(sec);
}

/** Whether a segment's distance counts toward a stake: dense, live, and at human running speed. */
export function countsForStake(segment: Segment): boolean {
  return segment.kind === 'dense' && !segment.late && !segment.tooFast && !segment.cycling;
}
