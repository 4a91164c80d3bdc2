import { round2 } from '../shared/units.ts';
import type { GpsPosition } from './geo.ts';
import { plausibleLegs } from './plausible-track.ts';

/*
 * A run's figures, one source for every screen that shows them (issue 26: one run showed 2:31 and 5:36 /km in its
 * summary and 2:28 and 5:31 in its splits, and its pace chart started at 1:22 /km). The distance is what the run
 * policy counts for the run (its XP distance: the track without the fixes and jumps the policy drops), the time is
 * the run's own (a GPS run's elapsed time, an import's moving time), the pace is the one divided by the other. The
 * splits and the pace chart lay the same distance and time along the track (runTimeline), so they add up to them.
 */

/** What a run shows: distance (km), time (s) and pace (s per km, unrounded; null without distance or time). */
export interface RunFigures {
  readonly distanceKm: number;
  readonly durationSec: number;
  readonly paceSecPerKm: number | null;
}

/** What the figures are made from: the run's stored distance and time and what the policy counted. */
export interface RunFacts {
  /** The run's claimed distance (km): a GPS run's track as submitted, an import's figure. */
  readonly claimedKm: number;
  readonly durationSec: number;
  /** What the policy counts for XP and free goals (km); null when the run carries no verdict. */
  readonly countedKm: number | null;
  /**
   * Rejected runs count nothing (their verdict says why): they show what they claimed less what the policy's fix
   * rules dropped (`droppedKm`: inaccurate fixes, spikes, jumps), the distance the live tracker showed.
   */
  readonly rejected: boolean;
  readonly droppedKm: number;
}

/** The pace over a distance and a time (s per km), or null when either is not positive. */
export function paceOf(km: number, sec: number): number | null {
  return km > 0 && sec > 0 ? sec / km : null;
}

/** A run as the API answers it, as far as its figures go (GET /runs `distance_km`, `duration_sec`, `verification`). */
export interface RunAnswer {
  readonly distance_km: number;
  readonly duration_sec: number;
  readonly verification: {
    readonly verdict: string;
    readonly xp_distance_km: number;
    readonly excluded: readonly { readonly reason: string; readonly km: number }[];
  } | null;
}

/**
 * The figures of a run as the API answers it: the API's own `pace_sec_per_km` and every screen of the web app read
 * them here, so a client that shows the API's pace shows the app's.
 */
export function figuresOfAnswer(run: RunAnswer): RunFigures {
  const v = run.verification;
  return runFigures({
    claimedKm: run.distance_km,
    durationSec: run.duration_sec,
    countedKm: v ? v.xp_distance_km : null,
    rejected: v?.verdict === 'rejected',
    droppedKm: (v?.excluded ?? [])
      .filter((p) => p.reason === 'teleport_segment' || p.reason === 'inaccurate_gps')
      .reduce((sum, p) => sum + p.km, 0),
  });
}

/** The figures every screen shows for a run (see the opening comment). */
export function runFigures(run: RunFacts): RunFigures {
  const counted = !run.rejected && run.countedKm !== null && run.countedKm > 0;
  const distanceKm = counted
    ? Math.min(run.countedKm!, run.claimedKm)
    : round2(Math.max(0, run.claimedKm - (run.rejected ? run.droppedKm : 0)));
  return { distanceKm, durationSec: run.durationSec, paceSecPerKm: paceOf(distanceKm, run.durationSec) };
}

/**
 * Cumulative distance (km) and time (s) at each kept fix of a track, both starting at 0 and never falling: the
 * policy's kept fixes, a jump adding time but no distance.
 */
export interface Timeline {
  readonly km: readonly number[];
  readonly sec: readonly number[];
}

/**
 * The track laid out as the run's figures: its plausible legs (plausible-track.ts), the distance scaled to the run's
 * distance and the time to the run's time, so the timeline ends exactly at the figures (a run's time also holds the
 * seconds before the first fix and after the last, spread along it). Without figures, the track's own.
 */
export function runTimeline(
  track: readonly GpsPosition[],
  figures?: Pick<RunFigures, 'distanceKm' | 'durationSec'>,
): Timeline {
  const legs = plausibleLegs(track);
  if (legs.length === 0) return { km: [], sec: [] };
  const t0 = legs[0]!.from.timestamp;
  const km = [0];
  const sec = [0];
  for (const leg of legs) {
    km.push(km[km.length - 1]! + (leg.jump ? 0 : leg.km));
    sec.push((leg.to.timestamp - t0) / 1000);
  }
  const trackKm = km[km.length - 1]!;
  const trackSec = sec[sec.length - 1]!;
  const kmScale = figures && trackKm > 0 && figures.distanceKm > 0 ? figures.distanceKm / trackKm : 1;
  const secScale = figures && trackSec > 0 && figures.durationSec > 0 ? figures.durationSec / trackSec : 1;
  const scaledKm = km.map((k) => k * kmScale);
  const scaledSec = sec.map((s) => s * secScale);
  // Ends on the figures themselves, not on a product a rounding away from them: a run shorter than one split then
  // shows in it the very time and pace of its summary.
  if (kmScale !== 1) scaledKm[scaledKm.length - 1] = figures!.distanceKm;
  if (secScale !== 1) scaledSec[scaledSec.length - 1] = figures!.durationSec;
  return { km: scaledKm, sec: scaledSec };
}

/** The time (s) at a distance along a timeline, interpolated between the fixes around it. */
export function secondsAt(timeline: Timeline, d: number): number {
  const { km, sec } = timeline;
  if (km.length === 0) return 0;
  if (d <= 0) return sec[0]!;
  // The first fix at or beyond d (km is non-decreasing): a stretch of no distance (a jump, a pause) lies before it.
  let lo = 0;
  let hi = km.length - 1;
  if (d >= km[hi]!) return sec[hi]!;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (km[mid]! < d) lo = mid;
    else hi = mid;
  }
  const span = km[hi]! - km[lo]!;
  const f = span > 0 ? Math.min(1, Math.max(0, (d - km[lo]!) / span)) : 1;
  return sec[lo]! + f * (sec[hi]! - sec[lo]!);
}
