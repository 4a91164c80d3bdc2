/**
 * What a runner lost while the page was hidden (issue 24.2): a browser stops GPS for a page whose screen is off or
 * which is in the background, and the run's distance between the last fix and the next is then a straight line.
 * Pure: times in milliseconds, from the page's clock (the fixes carry the device's time, as the tracker records it).
 */

/** A gap shorter than this is the GPS's own rhythm, not a pause worth telling. */
export const MIN_TOLD_GAP_MS = 60_000;

/**
 * The longest stretch without a fix while the page was hidden, from `hiddenAt` to `shownAt`, given the times of the
 * fixes that arrived in between (any order; ones outside the hidden span are ignored). 0 for an empty span.
 */
export function longestGapMs(hiddenAt: number, shownAt: number, fixTimes: readonly number[]): number {
  if (!(shownAt > hiddenAt)) return 0;
  const inside = fixTimes.filter((t) => t > hiddenAt && t < shownAt).sort((a, b) => a - b);
  let longest = 0;
  let previous = hiddenAt;
  for (const t of [...inside, shownAt]) {
    longest = Math.max(longest, t - previous);
    previous = t;
  }
  return longest;
}

/** Whole minutes of a gap as told (rounded, at least 1); null when the gap is too short to tell. */
export function toldGapMinutes(gapMs: number): number | null {
  if (!(gapMs >= MIN_TOLD_GAP_MS)) return null;
  return Math.max(1, Math.round(gapMs / 60_000));
}

/** The sentence the tracker shows on return. */
export const gpsPausedMessage = (minutes: number): string => `GPS paused for ${minutes} min while the screen was off`;
