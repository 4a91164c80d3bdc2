import { type GpsPosition, haversineKm } from '../../../../../domain/run/geo.ts';

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

/** A km in km, a mile in km: the split length in the user's unit. */
export const SPLIT_KM = { km: 1, mi: 1.609344 } as const;

/** Shorter final stretches than this are noise at the end of a track, not a split to show. */
const MIN_FINAL_KM = 0.01;

const pace = (km: number, sec: number) => (km > 0 && sec > 0 ? sec / km : null);

/**
 * Splits every `splitKm` along the track (its haversine length, as the run's distance is measured), the time at
 * each boundary interpolated between the two fixes around it. The last split holds the rest; it is dropped when it
 * is only a few metres. The splits' distances add up to the track's length and their times to the track's time.
 */
export function splitsOf(track: readonly GpsPosition[], splitKm: number): Split[] {
  const splits: Split[] = [];
  if (track.length < 2 || !(splitKm > 0)) return splits;
  let startSec = 0;
  let covered = 0;
  let boundary = splitKm;
  const t0 = track[0]!.timestamp;
  for (let i = 1; i < track.length; i++) {
    const a = track[i - 1]!;
    const b = track[i]!;
    const leg = haversineKm(a, b);
    const legStart = covered;
    covered += leg;
    while (covered >= boundary && leg > 0) {
      const at = (a.timestamp + ((boundary - legStart) / leg) * (b.timestamp - a.timestamp) - t0) / 1000;
      splits.push({
        index: splits.length + 1,
        distanceKm: splitKm,
        durationSec: at - startSec,
        paceSecPerKm: pace(splitKm, at - startSec),
        complete: true,
      });
      startSec = at;
      boundary += splitKm;
    }
  }
  const rest = covered - (boundary - splitKm);
  const endSec = (track[track.length - 1]!.timestamp - t0) / 1000;
  if (rest >= MIN_FINAL_KM || splits.length === 0) {
    splits.push({
      index: splits.length + 1,
      distanceKm: rest,
      durationSec: endSec - startSec,
      paceSecPerKm: pace(rest, endSec - startSec),
      complete: false,
    });
  } else if (splits.length > 0) {
    // The few metres left join the last whole split, so the total stays the track's.
    const last = splits.pop()!;
    const distanceKm = last.distanceKm + rest;
    const durationSec = last.durationSec + (endSec - startSec);
    splits.push({ ...last, distanceKm, durationSec, paceSecPerKm: pace(distanceKm, durationSec) });
  }
  return splits;
}
