/** One tier of five levels (§9). */
export interface Tier {
  readonly name: string;
  readonly fromLevel: number;
  readonly toLevel: number;
}

const NAMES = [
  'Rookie Runner',
  'Steady Strider',
  'Pace Setter',
  'Endurance Builder',
  'Trail Blazer',
  'Marathon Mindset',
  'Peak Performer',
  'Iron Runner',
  'Limit Breaker',
  'Stride Legend',
] as const;

/** The ten tiers in order, for the XP guide's tier list. */
export const TIERS: readonly Tier[] = NAMES.map((name, i) => ({ name, fromLevel: i * 5 + 1, toLevel: i * 5 + 5 }));

/** The tier of a level (levels outside 1..50 are clamped). */
export function tierForLevel(level: number): Tier {
  const index = Math.min(TIERS.length - 1, Math.max(0, Math.floor((level - 1) / 5)));
  return TIERS[index]!;
}
