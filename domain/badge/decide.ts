import { type Either, left, right } from 'fp-ts/lib/Either.js';
import { type Decider, type DomainError, domainError } from '../shared/decider.ts';
import { BadgeType } from './badge-type.ts';
import type { BadgeCommand } from './commands.ts';
import type { BadgeEvent } from './events.ts';
import { type BadgeState, initialBadgeState } from './state.ts';

type Result = Either<DomainError, readonly BadgeEvent[]>;

/** Decides a badge command: each type is earned at most once and celebrated at most once, after being earned. */
export function decideBadge(command: BadgeCommand, state: BadgeState): Result {
  const parsed = BadgeType.safeParse(command.badgeType);
  if (!parsed.success) return left(domainError('invalid', 'unknown_badge_type', 'Unknown badge type'));
  const badgeType = parsed.data;
  const badge = state.badges.get(badgeType);
  switch (command.type) {
    case 'AwardBadge': {
      if (badge) return left(domainError('conflict', 'badge_already_earned', 'Badge already earned'));
      const { userId, badgeId, now } = command;
      return right([{ type: 'BadgeEarned', data: { userId, badgeId, badgeType, earnedAt: now } }]);
    }
    case 'CelebrateBadge': {
      if (!badge) return left(domainError('not_found', 'badge_not_earned', 'Badge has not been earned'));
      if (badge.status === 'celebrated') {
        return left(domainError('conflict', 'badge_already_celebrated', 'Badge already celebrated'));
      }
      return right([
        { type: 'BadgeCelebrated', data: { userId: command.userId, badgeType, celebratedAt: command.now } },
      ]);
    }
    default: {
      const unreachable: never = command;
      return unreachable;
    }
  }
}

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
      if (badge)
        badges.set(event.data.badgeType, { ...badge, status: 'celebrated', celebratedAt: event.data.celebratedAt });
      break;
    }
    default: {
      const unreachable: never = event;
      return unreachable;
    }
  }
  return { badges };
}

/** A user's badge collection (stream `badges-<userId>`). */
export const badgeDecider: Decider<BadgeCommand, BadgeEvent, BadgeState> = {
  initialState: initialBadgeState,
  evolve: evolveBadge,
  decide: decideBadge,
};
