/**
 * The thresholds of the run verification policy (the reasoning is at the top of verification.ts). Changing any of
 * them changes verdicts: bump VERIFICATION_POLICY_VERSION with it. Verdicts are stored with the version that made
 * them (RunRecorded.verification.policyVersion) and are never recomputed for counting, so a new policy applies to
 * runs recorded from then on and never silently re-judges a settled week; the stake audit re-judges released
 * stakes under the current policy and lists the differences for review.
 */
export const VERIFICATION_POLICY_VERSION = 2;

/** FACTS "Fairness and verification" and "Learned the hard way". */
export const verificationLimits = {
  /** A fix reported less accurate than this (metres) is discarded (FACTS: peers reject 25–60 m). */
  maxFixAccuracyM: 50,
  /** Fixes may lie this far (seconds) outside the run's claimed time: device clocks and the start tap differ. */
  fixTimeToleranceSec: 120,
  /** Two fixes further apart in time than this (seconds) leave a gap: the track proves nothing in between. */
  maxDenseGapSec: 60,
  /** A gap longer than this (seconds) earns nothing at all, not even XP: two far-apart points are not a track. */
  maxCreditedGapSec: 600,
  /** Between two fixes, faster than any human sprint (100 m record ≈ 37.6 km/h): a GPS jump or a vehicle. */
  jumpSpeedKmh: 45,
  /** Above this share of jumps and beyond-record stretches in the ground covered, the run was (partly) a ride. */
  maxNotRunningShare: 0.2,
  /** Held for this long (seconds) or longer, an average above `cyclingSpeedKmh` is a bicycle, not a run. */
  cyclingWindowSec: 600,
  /** Elite 10 km pace is 3:00/km (20 km/h); our runners do not hold it for 10 minutes, cyclists do. */
  cyclingSpeedKmh: 20,
  /** The shortest window (seconds) the world-record check looks at: shorter ones measure GPS noise, not speed. */
  minSpeedWindowSec: 30,
  /** Average pace slower than 12.5 min/km (seconds per km) is walking. */
  walkingPaceSecPerKm: 750,
  /** A fix of a live GPS session that reached the server later than this after it was taken (seconds) is late. */
  maxLiveUploadDelaySec: 300,
  /**
   * The finish request carries the fixes since the last upload (10–30 s): those taken within this (seconds) of the
   * finish count; older ones sent with the finish are late, and a session that uploaded nothing before its finish
   * sent its track all at once: all of it is late.
   */
  maxFinishUploadDelaySec: 60,
  /** A whole track uploaded after the run (POST /runs) later than this after the run's end (seconds) is late. */
  maxAfterRunUploadSec: 7200,
  /** Two runs of one user whose claimed times share more than this (seconds) overlap: one person, one run at a time. */
  overlapToleranceSec: 60,
} as const;

/** Windows (seconds) over which the track's average speed is held against the world records. */
export const SPEED_WINDOWS_SEC: readonly number[] = [30, 60, 120, 300, 600, 1200, 1800, 3600, 7200, 14_400, 28_800];
