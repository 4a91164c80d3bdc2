import { MI_PER_KM } from '../../../../../domain/shared/units.ts';
import { paceOf, secondsAt, type Timeline } from '../../../../../domain/run/run-figures.ts';

/** One split of a run: the n-th kilometre (or mile), how long it is and how long it took. */
export interface Split {
  /** 1 for the first split. */
  readonly index: number;
  readonly distanceKm: number;
  readonly durationSec: number;
  /** Seconds per km over the split; null when it took no time. */
  readonly paceSecPerKm: number | null;
  /** False for the last split when it is shorter than a whole one. */
  readonly complete: boolean;
}

/** A km in km, a mile in km (as distances are shown in miles: units.ts): the split length in the user's unit. */
export const SPLIT_KM = { km: 1, mi: 1 / MI_PER_KM } as const;

/** Shorter final stretches than this are noise at the end of a track, not a split to show. */
const MIN_FINAL_KM = 0.01;

/**
 * Splits every `splitKm` along the run's timeline (run-figures.ts: the run's distance and time laid along its
 * track), the time at each boundary interpolated. The last split is the run's own remainder: its distance and time
 * less the whole splits, so the splits add up to the run's figures and a run shorter than one split shows exactly
 * its own time and pace. A remainder of only a few metres joins the last whole split.
 */
export function splitsOf(timeline: Timeline, splitKm: number): Split[] {
  const { km, sec } = timeline;
  const splits: Split[] = [];
  if (km.length < 2 || !(splitKm > 0)) return splits;
  const totalKm = km[km.length - 1]!;
  const totalSec = sec[sec.length - 1]!;
  let startSec = 0;
  for (let n = 1; n * splitKm <= totalKm; n++) {
    const at = secondsAt(timeline, n * splitKm);
    splits.push({
      index: splits.length + 1,
      distanceKm: splitKm,
      durationSec: at - startSec,
      paceSecPerKm: paceOf(splitKm, at - startSec),
      complete: true,
    });
    startSec = at;
  }
  const rest = totalKm - splits.length * splitKm;
  if (rest >= MIN_FINAL_KM || splits.length === 0) {
    splits.push({
      index: splits.length + 1,
      distanceKm: rest,
      durationSec: totalSec - startSec,
      paceSecPerKm: paceOf(rest, totalSec - startSec),
      complete: false,
    });
  } else {
    // The few metres left join the last whole split, so the total stays the run's.
    const last = splits.pop()!;
    const distanceKm = last.distanceKm + rest;
    const durationSec = last.durationSec + (totalSec - startSec);
    splits.push({ ...last, distanceKm, durationSec, paceSecPerKm: paceOf(distanceKm, durationSec) });
  }
  return splits;
}
