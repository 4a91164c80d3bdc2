import type { Temporal } from 'temporal-polyfill';

/** Award a badge, usually issued by the badge process manager from `badgesNewlyEarned`. */
export interface AwardBadge {
  readonly type: 'AwardBadge';
  readonly userId: string;
  readonly badgeId: string;
  /** Checked by the decider: one of the 12 badge types. */
  readonly badgeType: string;
  readonly now: Temporal.Instant;
}

/** Record that the user saw and closed the badge's celebration. */
export interface CelebrateBadge {
  readonly type: 'CelebrateBadge';
  readonly userId: string;
  readonly badgeType: string;
  readonly now: Temporal.Instant;
}

/** Every command a user's badge collection accepts. */
export type BadgeCommand = AwardBadge | CelebrateBadge;
