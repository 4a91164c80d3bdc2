import { round2 } from '../shared/units.ts';
import { type GpsPosition, haversineKm } from './geo.ts';

/** How far a run is trusted. Ordered: verified < suspicious < rejected. */
export type Verdict = 'verified' | 'suspicious' | 'rejected';

/**
 * Why a run is less than verified.
 * GPS glitches (the device, not the runner): teleport_segment, inaccurate_gps, sparse_gps.
 * Doubts about the activity itself: walking_pace, manual_entry, indoor_trainer, no_gps_track.
 * Grounds for rejection: vehicle_distance, faster_than_world_record, flagged_by_provider, not_a_run.
 */
export type VerificationReason =
  | 'teleport_segment'
  | 'inaccurate_gps'
  | 'sparse_gps'
  | 'walking_pace'
  | 'manual_entry'
  | 'indoor_trainer'
  | 'no_gps_track'
  | 'vehicle_distance'
  | 'faster_than_world_record'
  | 'flagged_by_provider'
  | 'not_a_run';

/** The reasons that only mean the phone's GPS misbehaved. */
export const GPS_GLITCH_REASONS: ReadonlySet<VerificationReason> = new Set([
  'teleport_segment',
  'inaccurate_gps',
  'sparse_gps',
]);

const REJECTING: ReadonlySet<VerificationReason> = new Set([
  'vehicle_distance',
  'faster_than_world_record',
  'flagged_by_provider',
  'not_a_run',
]);

/** Thresholds (FACTS "Fairness and verification"); bump `VERIFICATION_POLICY_VERSION` when changing any. */
export const verificationLimits = {
  /** A jump faster than this between two fixes is a teleport or a vehicle. */
  maxSegmentSpeedKmh: 25,
  /** Above this share of the distance in teleport segments, the run was (partly) a ride. */
  maxTeleportShare: 0.2,
  /** Average pace slower than 12.5 min/km is walking. */
  walkingPaceSecPerKm: 750,
  /** Around the 1000 m world record (2:11.96): any run of 1 km or more averaging faster is not on foot. */
  worldRecordPaceSecPerKm: 130,
  /** A fix less accurate than this is poor; more than half poor fixes make the track unreliable. */
  maxAccuracyM: 50,
  maxPoorFixShare: 0.5,
  /** A hole in the track longer than this. */
  maxGapSec: 120,
} as const;

/** Stored with each verdict so a later policy change never silently re-judges settled weeks. */
export const VERIFICATION_POLICY_VERSION = 1;

/** What a connected service says about an imported activity (Strava: manual, trainer, flagged, sport_type). */
export interface ImportFlags {
  readonly manual: boolean;
  readonly trainer: boolean;
  readonly flagged: boolean;
  readonly sportType: string;
}

/** The facts verification looks at. */
export interface RunEvidence {
  readonly distanceKm: number;
  readonly durationSec: number;
  readonly positions: readonly GpsPosition[];
  /** Null for a run tracked in the app. */
  readonly importFlags: ImportFlags | null;
}

/** The verdict with its reasons and the distance left once teleport segments are cut out. */
export interface Verification {
  readonly verdict: Verdict;
  readonly reasons: readonly VerificationReason[];
  readonly trustedDistanceKm: number;
  readonly policyVersion: number;
}

/** Sport types of the running service that are runs on foot. */
const RUN_SPORT_TYPES = new Set(['Run', 'TrailRun', 'VirtualRun']);

interface TrackFacts {
  readonly rawKm: number;
  readonly teleportKm: number;
  readonly spanSec: number;
  readonly maxGapSec: number;
  readonly poorFixes: number;
}

/**
 * Reads a track. A segment is a teleport when its implied speed is above the limit AND the jump is larger than
 * the two fixes' combined accuracy: ordinary jitter between close, fuzzy fixes is not held against the runner.
 * Fixes out of time order give an infinite speed, so a jump between them counts as a teleport.
 */
function readTrack(positions: readonly GpsPosition[]): TrackFacts {
  let rawKm = 0;
  let teleportKm = 0;
  let maxGapSec = 0;
  let poorFixes = 0;
  for (const [i, p] of positions.entries()) {
    if ((p.accuracy ?? 0) > verificationLimits.maxAccuracyM) poorFixes++;
    const prev = positions[i - 1];
    if (prev === undefined) continue;
    const km = haversineKm(prev, p);
    const sec = (p.timestamp - prev.timestamp) / 1000;
    rawKm += km;
    maxGapSec = Math.max(maxGapSec, sec);
    const kmh = sec > 0 ? (km / sec) * 3600 : km > 0 ? Number.POSITIVE_INFINITY : 0;
    const fuzzKm = ((prev.accuracy ?? 0) + (p.accuracy ?? 0)) / 1000;
    if (kmh > verificationLimits.maxSegmentSpeedKmh && km > fuzzKm) teleportKm += km;
  }
  const first = positions[0];
  const last = positions[positions.length - 1];
  const spanSec = first && last ? Math.max(0, (last.timestamp - first.timestamp) / 1000) : 0;
  return { rawKm, teleportKm, spanSec, maxGapSec, poorFixes };
}

/**
 * Judges a run (pure, deterministic). A GPS track is judged by its segments: the 25 km/h segment rule already
 * catches any stretch faster than world-record pace, so the world-record rule applies to imported summaries.
 * Monotone by construction: adding a teleport segment can only add reasons that lower trust.
 */
export function verifyRun(run: RunEvidence): Verification {
  const reasons = new Set<VerificationReason>();
  const flags = run.importFlags;
  if (flags !== null) {
    if (flags.flagged) reasons.add('flagged_by_provider');
    if (!RUN_SPORT_TYPES.has(flags.sportType)) reasons.add('not_a_run');
    if (flags.manual) reasons.add('manual_entry');
    if (flags.trainer || flags.sportType === 'VirtualRun') reasons.add('indoor_trainer');
  }

  let trustedKm = run.distanceKm;
  let durationSec = run.durationSec;
  if (run.positions.length >= 2) {
    const track = readTrack(run.positions);
    trustedKm = track.rawKm - track.teleportKm;
    durationSec = track.spanSec;
    if (track.teleportKm > 0) reasons.add('teleport_segment');
    if (track.rawKm > 0 && track.teleportKm / track.rawKm > verificationLimits.maxTeleportShare)
      reasons.add('vehicle_distance');
    if (track.poorFixes / run.positions.length > verificationLimits.maxPoorFixShare) reasons.add('inaccurate_gps');
    if (track.maxGapSec > verificationLimits.maxGapSec) reasons.add('sparse_gps');
  } else {
    reasons.add('no_gps_track');
    if (run.distanceKm >= 1 && run.durationSec / run.distanceKm < verificationLimits.worldRecordPaceSecPerKm) {
      reasons.add('faster_than_world_record');
    }
  }
  if (trustedKm <= 0 || durationSec / trustedKm > verificationLimits.walkingPaceSecPerKm) reasons.add('walking_pace');

  const list = [...reasons].sort();
  const verdict: Verdict = list.some((r) => REJECTING.has(r))
    ? 'rejected'
    : list.length > 0
      ? 'suspicious'
      : 'verified';
  return {
    verdict,
    reasons: list,
    trustedDistanceKm: round2(Math.max(0, trustedKm)),
    policyVersion: VERIFICATION_POLICY_VERSION,
  };
}

/** Orders verdicts by distrust, for comparisons. */
export function verdictRank(verdict: Verdict): number {
  return verdict === 'verified' ? 0 : verdict === 'suspicious' ? 1 : 2;
}
