/** Only badges earned this recently are celebrated (§9: 7 days). */
export const CELEBRATION_WINDOW_DAYS = 7;

/** How many uncelebrated badges are looked at, newest first (§9: up to 5). */
export const CELEBRATION_LOOKUP_LIMIT = 5;
