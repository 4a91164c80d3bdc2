import { round2 } from '../shared/units.ts';
import type { GpsPosition } from './geo.ts';
import { countsForStake, countsForXp, readTrack, type Segment, type TrackReading } from './track-reading.ts';
import { trackKey } from './track-key.ts';
import { VERIFICATION_POLICY_VERSION, verificationLimits as limits } from './verification-policy.ts';
import { worldRecordSpeedKmh } from './world-records.ts';

export { VERIFICATION_POLICY_VERSION, verificationLimits } from './verification-policy.ts';

/*
 * RUN VERIFICATION POLICY, version 2 (issue 11 "No way to cheat"; FACTS "Fairness and verification").
 *
 * A run earns three distances, each at most the one before:
 *   claimed  — what the run says: the track's length as submitted (GPS), or the service's figure (imports);
 *   XP       — what counts for XP, badges and free goals: the benefit of the doubt, nobody's money moves on it;
 *   stake    — what counts toward a goal with money on it: only what the track proves was run, live, on foot.
 *
 * 1. The track must support the distance. Fixes reported less accurate than 50 m are discarded; a fix that jumps
 *    away and straight back (a GPS spike) is discarded; fixes out of time order are discarded. Between two kept
 *    fixes more than 60 s apart the track proves nothing: the gap's straight line counts for XP when it is short
 *    (≤ 10 min) and humanly possible, never toward a stake. A sparse track thus earns only what its dense stretches
 *    prove. A move between two fixes faster than 45 km/h (beyond their accuracy) is a jump and counts nowhere.
 * 2. Speeds held beyond human running earn nothing toward a stake: every window of the track from 30 s up to its
 *    whole length is held against the world record for that duration (world-records.ts); a stretch beaten by it
 *    counts nowhere. Ten minutes or more above 20 km/h is cycling: no stake distance, still XP.
 * 3. Fix timestamps must lie inside the run's claimed time (± 2 min): a fix outside it counts nowhere (an old track
 *    sent with today's start). Whether the claimed time lies inside a goal's week, and whether a run overlaps or
 *    repeats another of the same user, is decided when runs are counted together (count-once.ts, goal/progress.ts).
 * 4. A track must reach us while it is run. A live GPS session uploads fixes as it goes; a fix that reached the
 *    server more than 5 min after it was taken (the phone was offline) is late: its stretch counts for XP, not
 *    toward a stake, and the rest of the run still counts. The finish brings the last seconds: fixes in it older
 *    than 1 min are late, and a session that uploaded nothing before its finish sent its whole track at the end:
 *    all of it is late. A track uploaded whole after the run (POST /runs) must arrive within 2 hours of the run's
 *    end, or all of it is late. A track that arrives after the fact cannot be told
 *    from one made up after the fact; the runner's own phone, live, can.
 * 5. Doubts about the device (accuracy, spikes, gaps, lateness) never cost a runner their stake: the glitched
 *    stretch is dropped and the rest counts. Doubts about the activity itself (walking pace, a manual entry, a
 *    treadmill, no track at all) count for XP and free goals only. Evidence of something other than running (over
 *    20% of the claim in jumps or beyond-record stretches, a service's flag, another sport) is rejected: nothing
 *    counts anywhere.
 *
 * Verdicts are stored with the run and never recomputed for counting (verification-policy.ts says why).
 * Monotone by construction: adding fixes that jump, leave gaps, arrive late or lie outside the claimed time never
 * adds stake distance; stake ≤ XP ≤ claimed.
 */

/** How far a run is trusted. Ordered: verified < suspicious < rejected. */
export type Verdict = 'verified' | 'suspicious' | 'rejected';

/**
 * Why a run is less than verified.
 * The device (a stretch is dropped, the rest counts): teleport_segment, inaccurate_gps, sparse_gps, uploaded_late.
 * The activity (counts for XP and free goals only): walking_pace, manual_entry, indoor_trainer, no_gps_track, and,
 * for the stretch concerned, cycling_speed.
 * Counts nowhere (that part): fix_outside_run_time, faster_than_world_record.
 * Rejection (nothing counts): vehicle_distance, flagged_by_provider, not_a_run.
 */
export type VerificationReason =
  | 'teleport_segment'
  | 'inaccurate_gps'
  | 'sparse_gps'
  | 'uploaded_late'
  | 'walking_pace'
  | 'manual_entry'
  | 'indoor_trainer'
  | 'no_gps_track'
  | 'cycling_speed'
  | 'fix_outside_run_time'
  | 'faster_than_world_record'
  | 'vehicle_distance'
  | 'flagged_by_provider'
  | 'not_a_run';

/** The reasons that only mean the phone's GPS misbehaved (version 1 counted such runs toward stakes). */
export const GPS_GLITCH_REASONS: ReadonlySet<VerificationReason> = new Set([
  'teleport_segment',
  'inaccurate_gps',
  'sparse_gps',
]);

const REJECTING: ReadonlySet<VerificationReason> = new Set(['vehicle_distance', 'flagged_by_provider', 'not_a_run']);

/** What a connected service says about an imported activity (Strava: manual, trainer, flagged, sport_type). */
export interface ImportFlags {
  readonly manual: boolean;
  readonly trainer: boolean;
  readonly flagged: boolean;
  readonly sportType: string;
}

/** The facts verification looks at. */
export interface RunEvidence {
  /** The claimed start (epoch ms). */
  readonly startedAtMs: number;
  /** Elapsed seconds for a GPS run; moving time for an import. */
  readonly durationSec: number;
  /** An import's elapsed seconds (its claimed time); null when `durationSec` is the elapsed time. */
  readonly elapsedSec: number | null;
  /** The claimed distance (km). */
  readonly distanceKm: number;
  readonly positions: readonly GpsPosition[];
  /** Null for a run tracked in the app. */
  readonly importFlags: ImportFlags | null;
  /** When the server recorded the run (epoch ms). */
  readonly recordedAtMs: number;
}

/** A part of the claim that did not count, by reason: its distance, its duration, the fixes dropped, the stretches. */
export interface ExcludedPart {
  readonly reason: VerificationReason;
  readonly km: number;
  readonly sec: number;
  readonly fixes: number;
  /** How many separate stretches (gaps, jumps…) make up the part; 0 for dropped fixes. */
  readonly stretches: number;
}

/** A stretch of the run that counts toward a stake, so a goal can count only what was run inside its week. */
export interface StakeStretch {
  readonly startMs: number;
  readonly endMs: number;
  readonly km: number;
}

/** A verdict of policy version 1 (stored on runs recorded before version 2; counted by its own rule). */
export interface VerificationV1 {
  readonly verdict: Verdict;
  readonly reasons: readonly VerificationReason[];
  readonly trustedDistanceKm: number;
  readonly policyVersion: 1;
}

/** A verdict of the current policy. */
export interface VerificationV2 {
  readonly verdict: Verdict;
  readonly reasons: readonly VerificationReason[];
  /** Counts for XP and free goals (km). */
  readonly trustedDistanceKm: number;
  /** Counts toward a stake (km), before the cross-run rules of count-once.ts. */
  readonly stakeDistanceKm: number;
  readonly claimedDistanceKm: number;
  readonly excluded: readonly ExcludedPart[];
  readonly stakeStretches: readonly StakeStretch[];
  /** The track's fingerprint (track-key.ts), null without a track. */
  readonly trackKey: string | null;
  readonly policyVersion: 2;
}

/** A stored verdict, of any policy version. */
export type Verification = VerificationV1 | VerificationV2;

/** Sport types of the running service that are runs on foot. */
const RUN_SPORT_TYPES = new Set(['Run', 'TrailRun', 'VirtualRun']);

function reasonsFromFlags(flags: ImportFlags | null, reasons: Set<VerificationReason>): void {
  if (flags === null) return;
  if (flags.flagged) reasons.add('flagged_by_provider');
  if (!RUN_SPORT_TYPES.has(flags.sportType)) reasons.add('not_a_run');
  if (flags.manual) reasons.add('manual_entry');
  if (flags.trainer || flags.sportType === 'VirtualRun') reasons.add('indoor_trainer');
}

/** Whether each fix arrived too late to be live evidence (rule 4). Imports come from a service: never late. */
function lateness(run: RunEvidence, claimedEndMs: number): (fix: GpsPosition) => boolean {
  if (run.importFlags !== null) return () => false;
  if (run.positions.some((p) => typeof p.receivedAt === 'number')) {
    const arrival = (fix: GpsPosition) => fix.receivedAt ?? run.recordedAtMs;
    // What arrived with the finish (the recording moment) and what arrived while the session ran.
    const uploadedLive = run.positions.some((p) => arrival(p) < run.recordedAtMs);
    const liveMs = limits.maxLiveUploadDelaySec * 1000;
    const finishMs = limits.maxFinishUploadDelaySec * 1000;
    return (fix) => {
      const atFinish = arrival(fix) >= run.recordedAtMs;
      if (atFinish && !uploadedLive) return true;
      return arrival(fix) - fix.timestamp > (atFinish ? finishMs : liveMs);
    };
  }
  const late = run.recordedAtMs - claimedEndMs > limits.maxAfterRunUploadSec * 1000;
  return () => late;
}

const sumKm = (segments: readonly Segment[]) => segments.reduce((sum, s) => sum + s.km, 0);
const sumSec = (segments: readonly Segment[]) => segments.reduce((sum, s) => sum + (s.endMs - s.startMs) / 1000, 0);

/** What each reason took out of the claim, from the stages of the reading. */
function excludedParts(track: TrackReading): ExcludedPart[] {
  const { segments, dropped } = track;
  const part = (reason: VerificationReason, km: number, parts: readonly Segment[], fixes = 0): ExcludedPart => ({
    reason,
    km: round2(Math.max(0, km)),
    sec: Math.round(sumSec(parts)),
    fixes,
    stretches: parts.length,
  });
  const jumps = segments.filter((s) => s.kind === 'jump');
  const fast = segments.filter((s) => s.kind !== 'jump' && s.tooFast);
  const gaps = segments.filter((s) => s.kind === 'gap' && !s.tooFast);
  const late = segments.filter((s) => s.kind === 'dense' && !s.tooFast && s.late);
  const cycling = segments.filter((s) => s.kind === 'dense' && !s.tooFast && !s.late && s.cycling);
  return [
    part('fix_outside_run_time', track.rawKm - track.inTimeKm, [], dropped.outsideTime),
    part('inaccurate_gps', track.inTimeKm - track.accurateKm, [], dropped.inaccurate),
    part('teleport_segment', track.accurateKm - track.cleanKm + sumKm(jumps), jumps, dropped.jumps),
    part('faster_than_world_record', sumKm(fast), fast),
    part('sparse_gps', sumKm(gaps), gaps),
    part('uploaded_late', sumKm(late), late),
    part('cycling_speed', sumKm(cycling), cycling),
  ].filter((p) => p.km > 0);
}

/** Consecutive stake segments merged into stretches (unrounded km). */
function stretchesOf(segments: readonly Segment[]): StakeStretch[] {
  const stretches: StakeStretch[] = [];
  for (const s of segments) {
    if (!countsForStake(s)) continue;
    const last = stretches[stretches.length - 1];
    if (last && last.endMs === s.startMs)
      stretches[stretches.length - 1] = { ...last, endMs: s.endMs, km: last.km + s.km };
    else stretches.push({ startMs: s.startMs, endMs: s.endMs, km: s.km });
  }
  return stretches;
}

interface Judged {
  readonly xpKm: number;
  readonly stakeKm: number;
  readonly excluded: ExcludedPart[];
  readonly stretches: StakeStretch[];
}

/** Rules 1–4 on a GPS track. */
function judgeTrack(run: RunEvidence, reasons: Set<VerificationReason>): Judged {
  const claimedEndMs = run.startedAtMs + (run.elapsedSec ?? run.durationSec) * 1000;
  const track = readTrack(run.positions, {
    claimedStartMs: run.startedAtMs,
    claimedEndMs,
    isLate: lateness(run, claimedEndMs),
  });
  const excluded = excludedParts(track);
  for (const p of excluded) reasons.add(p.reason);
  const stakeSegments = track.segments.filter(countsForStake);
  const xpKm = sumKm(track.segments.filter(countsForXp));
  let stakeKm = sumKm(stakeSegments);
  // Sustained jumps and beyond-record stretches (a removed single-fix spike is a glitch, not a ride), measured
  // against the ground covered at running speed, not the claim: padding a ride with a long, slow gap or with fixes
  // outside the claimed time must not dilute it below the limit.
  const notRunningKm = sumKm(track.segments.filter((s) => s.kind === 'jump' || s.tooFast));
  const runningKm = sumKm(track.segments.filter((s) => s.kind === 'dense' && !s.tooFast));
  if (notRunningKm > limits.maxNotRunningShare * (notRunningKm + runningKm)) reasons.add('vehicle_distance');
  // A track that covers no ground at all reads as walking, unless another reason already says why.
  const standingStill = xpKm <= 0 && reasons.size === 0;
  if (standingStill || (stakeKm > 0 && sumSec(stakeSegments) / stakeKm > limits.walkingPaceSecPerKm)) {
    reasons.add('walking_pace');
    stakeKm = 0;
  }
  return { xpKm, stakeKm, excluded, stretches: stakeKm > 0 ? stretchesOf(track.segments) : [] };
}

/** An imported summary without a track: the service's distance for XP, nothing toward a stake. */
function judgeSummary(run: RunEvidence, reasons: Set<VerificationReason>): Judged {
  reasons.add('no_gps_track');
  const sec = run.elapsedSec ?? run.durationSec;
  if (run.distanceKm > 0 && (run.distanceKm / Math.max(run.durationSec, 1)) * 3600 > worldRecordSpeedKmh(sec)) {
    reasons.add('faster_than_world_record');
    return { xpKm: 0, stakeKm: 0, excluded: [], stretches: [] };
  }
  if (run.distanceKm <= 0 || run.durationSec / run.distanceKm > limits.walkingPaceSecPerKm) reasons.add('walking_pace');
  return { xpKm: run.distanceKm, stakeKm: 0, excluded: [], stretches: [] };
}

/** Judges a run (pure, deterministic) under the current policy; see the opening comment. */
export function verifyRun(run: RunEvidence): VerificationV2 {
  const reasons = new Set<VerificationReason>();
  reasonsFromFlags(run.importFlags, reasons);
  const judged = run.positions.length >= 2 ? judgeTrack(run, reasons) : judgeSummary(run, reasons);
  const list = [...reasons].sort();
  const rejected = list.some((r) => REJECTING.has(r));
  const doubtsActivity = list.some((r) => r === 'manual_entry' || r === 'indoor_trainer' || r === 'no_gps_track');
  const claimedKm = round2(Math.max(0, run.distanceKm));
  const xpKm = rejected ? 0 : Math.min(round2(judged.xpKm), claimedKm);
  const stakeKm = rejected || doubtsActivity ? 0 : Math.min(round2(judged.stakeKm), xpKm);
  const verdict: Verdict =
    rejected || (xpKm <= 0 && claimedKm > 0) ? 'rejected' : list.length > 0 ? 'suspicious' : 'verified';
  return {
    verdict,
    reasons: list,
    trustedDistanceKm: xpKm,
    stakeDistanceKm: stakeKm,
    claimedDistanceKm: claimedKm,
    excluded: judged.excluded,
    stakeStretches: stakeKm > 0 ? scaledTo(judged.stretches, stakeKm) : [],
    trackKey: trackKey(run.positions),
    policyVersion: VERIFICATION_POLICY_VERSION,
  };
}

/** The stretches rounded, and scaled down when the stake distance was capped below their sum. */
function scaledTo(stretches: readonly StakeStretch[], stakeKm: number): StakeStretch[] {
  const sum = stretches.reduce((acc, s) => acc + s.km, 0);
  const scale = sum > stakeKm ? stakeKm / sum : 1;
  return stretches.map((s) => ({ ...s, km: round2(s.km * scale) }));
}
