/**
 * At most `max` fixes of a track for drawing it (a map, splits, a pace chart): the first and the last always, and
 * evenly spaced fixes between, so a four-hour run recorded every second still travels as a few kilobytes.
 */
export function thinTrack<Fix>(fixes: readonly Fix[], max: number): Fix[] {
  if (max < 2) throw new RangeError('a drawn track needs at least 2 fixes');
  if (fixes.length <= max) return [...fixes];
  const step = (fixes.length - 1) / (max - 1);
  return Array.from({ length: max }, (_, i) => fixes[Math.round(i * step)]!);
}
