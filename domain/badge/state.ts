import type { BadgeType } from './badge-type.ts';

/** One earned badge: earned and waiting for its celebration, or already celebrated. Unearned badges are absent. */
export type EarnedBadge =
  | { readonly status: 'earned'; readonly badgeId: string; readonly earnedAt: string }
  | {
      readonly status: 'celebrated';
      readonly badgeId: string;
      readonly earnedAt: string;
      readonly celebratedAt: string;
    };

/** A user's badge collection (stream `badges-<userId>`). */
export interface BadgeState {
  readonly badges: ReadonlyMap<BadgeType, EarnedBadge>;
}

/** A user with no badges. */
export const initialBadgeState: BadgeState = { badges: new Map() };
