/** Highest level (§9); shown as 'MAX'. */
export const MAX_LEVEL = 50;

/** Total XP at which level n starts: floor(200·(n−1)^1.7) (§9). Level 1 starts at 0. */
export function levelStartXp(level: number): number {
  return Math.floor(200 * (level - 1) ** 1.7);
}

/** The level reached with this much XP: the highest n ≤ 50 whose start is ≤ xp (negative XP counts as 0). */
export function levelForXp(xp: number): number {
  let level = 1;
  while (level < MAX_LEVEL && levelStartXp(level + 1) <= xp) level += 1;
  return level;
}

/** Where a user stands within their level, for the XP bar and the level ring. */
export interface LevelProgress {
  readonly level: number;
  /** The level as displayed: its number, or 'MAX' at level 50 (§4). */
  readonly label: string;
  readonly isMax: boolean;
  /** XP earned since the current level started. */
  readonly xpIntoLevel: number;
  /** XP the current level spans (next start − this start); 0 at MAX. */
  readonly xpForLevel: number;
  /** XP still needed for the next level; 0 at MAX. */
  readonly xpToNextLevel: number;
  /** xpIntoLevel / xpForLevel in [0, 1); 1 at MAX so the bar shows full. */
  readonly fraction: number;
}

/** The level and progress within it for a total XP. */
export function levelProgress(totalXp: number): LevelProgress {
  const xp = Math.max(0, Math.floor(totalXp));
  const level = levelForXp(xp);
  const start = levelStartXp(level);
  if (level === MAX_LEVEL) {
    return { level, label: 'MAX', isMax: true, xpIntoLevel: xp - start, xpForLevel: 0, xpToNextLevel: 0, fraction: 1 };
  }
  const span = levelStartXp(level + 1) - start;
  const into = xp - start;
  return {
    level,
    label: String(level),
    isMax: false,
    xpIntoLevel: into,
    xpForLevel: span,
    xpToNextLevel: span - into,
    fraction: into / span,
  };
}
