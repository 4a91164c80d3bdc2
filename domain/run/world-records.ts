/**
 * Men's running world records (outdoor, road or track), the fastest any human has covered a distance. They form
 * the ceiling of human running speed for a given duration: a stretch averaging faster than the record for its
 * duration was not run on foot. FACTS "Learned the hard way": the one-hour record is 21.33 km, the 5 km record pace
 * about 2:31/km, the marathon record pace about 2:52/km; the 1000 m record is 2:11.96.
 * Ordered by duration; the speeds fall as the duration grows.
 */
export const WORLD_RECORDS: readonly { readonly label: string; readonly metres: number; readonly seconds: number }[] = [
  { label: '100 m', metres: 100, seconds: 9.58 },
  { label: '200 m', metres: 200, seconds: 19.19 },
  { label: '400 m', metres: 400, seconds: 43.03 },
  { label: '800 m', metres: 800, seconds: 100.91 },
  { label: '1000 m', metres: 1000, seconds: 131.96 },
  { label: '1500 m', metres: 1500, seconds: 206.0 },
  { label: '3000 m', metres: 3000, seconds: 440.67 },
  { label: '5000 m', metres: 5000, seconds: 755.36 },
  { label: '10,000 m', metres: 10_000, seconds: 1571.0 },
  { label: 'one hour', metres: 21_330, seconds: 3600 },
  { label: 'marathon', metres: 42_195, seconds: 7235 },
  { label: '100 km', metres: 100_000, seconds: 21_941 },
  { label: '24 hours', metres: 319_614, seconds: 86_400 },
];

const speedKmh = (r: { metres: number; seconds: number }) => (r.metres / r.seconds) * 3.6;

/**
 * The fastest average speed (km/h) a human has held for `durationSec`: the world records' speeds interpolated on
 * the logarithm of the duration, flat beyond the shortest and the longest record. Never increases with duration.
 */
export function worldRecordSpeedKmh(durationSec: number): number {
  const first = WORLD_RECORDS[0]!;
  const last = WORLD_RECORDS[WORLD_RECORDS.length - 1]!;
  if (!(durationSec > first.seconds)) return speedKmh(first);
  if (durationSec >= last.seconds) return speedKmh(last);
  for (let i = 1; i < WORLD_RECORDS.length; i++) {
    const upper = WORLD_RECORDS[i]!;
    if (durationSec > upper.seconds) continue;
    const lower = WORLD_RECORDS[i - 1]!;
    const share = Math.log(durationSec / lower.seconds) / Math.log(upper.seconds / lower.seconds);
    return speedKmh(lower) + share * (speedKmh(upper) - speedKmh(lower));
  }
  return speedKmh(last);
}
