/** Award a badge, usually issued by the badge process manager from `badgesNewlyEarned`. */
export interface AwardBadge {
  readonly type: 'AwardBadge';
  readonly userId: string;
  readonly badgeId: string;
  readonly badgeType: string;
  readonly now: string;
}

/** Record that the user saw and closed the badge's celebration. */
export interface CelebrateBadge {
  readonly type: 'CelebrateBadge';
  readonly userId: string;
  readonly badgeType: string;
  readonly now: string;
}

/** Every command a user's badge collection accepts. */
export type BadgeCommand = AwardBadge | CelebrateBadge;
