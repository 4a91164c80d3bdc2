import { type GpsPosition, haversineKm } from './geo.ts';
import { verificationLimits as limits } from './verification-policy.ts';

/*
 * The fix rules of the run policy (docs/run-policy.md, rule 1) that need nothing but the fixes themselves, shared
 * by the policy on the server (track-reading.ts) and the live tracker in the app: a fix less accurate than 50 m is
 * discarded, a fix dated at or before the one before it is discarded, a single fix that jumps away and straight back
 * (a spike) is discarded, and a move between two kept fixes faster than 45 km/h beyond what their accuracy explains
 * is a jump that adds no distance. So the distance the tracker shows while running is the one the policy then counts
 * (issue 26: the tracker counted a 385 m jump made in 2 s that the policy dropped).
 */

const kmh = (km: number, sec: number) => (sec > 0 ? (km / sec) * 3600 : km > 0 ? Number.POSITIVE_INFINITY : 0);

/** The distance two fixes' own accuracies explain (km): a move within it may be jitter, not motion. */
const fuzzKm = (a: GpsPosition, b: GpsPosition) => ((a.accuracy ?? 0) + (b.accuracy ?? 0)) / 1000;

/** Whether going from a to b is faster than any human, beyond what the fixes' accuracy explains. */
export function isJump(a: GpsPosition, b: GpsPosition): boolean {
  return isJumpOf(haversineKm(a, b), a, b);
}

/** isJump for a segment whose length (`km`, haversineKm of its two fixes) is known already. */
export function isJumpOf(km: number, a: GpsPosition, b: GpsPosition): boolean {
  return km > fuzzKm(a, b) && kmh(km, (b.timestamp - a.timestamp) / 1000) > limits.jumpSpeedKmh;
}

/** Keeps the fixes reported at least as accurate as the policy asks (no accuracy reported: kept). */
export function accurateFixes<T extends GpsPosition>(fixes: readonly T[]): T[] {
  return fixes.filter((p) => (p.accuracy ?? 0) <= limits.maxFixAccuracyM);
}

/** Keeps fixes in strictly increasing time (a fix dated at or before the previous one is a glitch). */
function inOrder<T extends GpsPosition>(fixes: readonly T[]): T[] {
  const kept: T[] = [];
  for (const fix of fixes) {
    const last = kept[kept.length - 1];
    if (last === undefined || fix.timestamp > last.timestamp) kept.push(fix);
  }
  return kept;
}

/** Drops single fixes that jump away and straight back (a GPS spike): the runner never left the line. */
function withoutSpikes<T extends GpsPosition>(fixes: readonly T[]): T[] {
  const kept: T[] = [];
  for (let i = 0; i < fixes.length; i++) {
    const fix = fixes[i]!;
    const prev = kept[kept.length - 1];
    const next = fixes[i + 1];
    if (prev && next && isJump(prev, fix) && isJump(fix, next) && !isJump(prev, next)) continue;
    kept.push(fix);
  }
  return kept;
}

/** Of accurate fixes, those in time order and not single-fix spikes (the policy's "clean" track). */
export function cleanFixes<T extends GpsPosition>(accurate: readonly T[]): T[] {
  return withoutSpikes(inOrder(accurate));
}

/** One leg between two kept fixes: its length, and whether it is a jump (then it adds no distance). */
export interface PlausibleLeg {
  readonly from: GpsPosition;
  readonly to: GpsPosition;
  readonly km: number;
  readonly jump: boolean;
}

/** The legs of a track once the policy's fix rules have dropped what they drop. */
export function plausibleLegs(positions: readonly GpsPosition[]): PlausibleLeg[] {
  const kept = cleanFixes(accurateFixes(positions));
  return kept.slice(1).map((to, i) => {
    const from = kept[i]!;
    const km = haversineKm(from, to);
    return { from, to, km, jump: isJumpOf(km, from, to) };
  });
}

/**
 * The distance of a track as the run policy reads it (km, unrounded): its kept fixes' legs without the jumps. For a
 * live, dense track of a run this is the distance the policy counts (round2 of it is the run's XP distance).
 */
export function plausibleDistanceKm(positions: readonly GpsPosition[]): number {
  return plausibleLegs(positions).reduce((sum, leg) => sum + (leg.jump ? 0 : leg.km), 0);
}
