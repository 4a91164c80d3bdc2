import type { BadgeType } from './badge-type.ts';
import type { BadgeEvent } from './events.ts';

/** One earned badge: earned and waiting for its celebration, or already celebrated. Unearned badges are absent. */
export type EarnedBadge =
  | { readonly status: 'earned'; readonly badgeId: string; readonly earnedAt: string }
  | {
      readonly status: 'celebrated';
      readonly badgeId: string;
      readonly earnedAt: string;
      readonly celebratedAt: string;
    };

/**
 * A user's badge collection (stream `badges-<userId>`). Each badge has its own small lifecycle (earned →
 * celebrated), so the collection is a map of those rather than one status.
 */
export interface BadgeState {
  readonly badges: ReadonlyMap<BadgeType, EarnedBadge>;
}

/** A user with no badges. */
export const initialBadgeState: BadgeState = { badges: new Map() };

/** Applies one badge event. */
export function evolveBadge(state: BadgeState, event: BadgeEvent): BadgeState {
  const badges = new Map(state.badges);
  switch (event.type) {
    case 'BadgeEarned':
      badges.set(event.data.badgeType, {
        status: 'earned',
        badgeId: event.data.badgeId,
        earnedAt: event.data.earnedAt,
      });
      break;
    case 'BadgeCelebrated': {
      const badge = badges.get(event.data.badgeType);
      if (badge) {
        badges.set(event.data.badgeType, { ...badge, status: 'celebrated', celebratedAt: event.data.celebratedAt });
      }
      break;
    }
    default: {
      const unreachable: never = event;
      return unreachable;
    }
  }
  return { badges };
}
