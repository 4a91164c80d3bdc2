/** Highest XP multiplier a surge may carry: beyond 5x a single run would dwarf a month of goals. */
export const MAX_SURGE_MULTIPLIER = 5;
