import { type Either, left, right } from 'fp-ts/lib/Either.js';
import { type DomainError, defineDecider } from '../shared/decider.ts';
import { isoMillis } from '../shared/instant.ts';
import { BadgeType } from './badge-type.ts';
import type { BadgeCommand } from './commands.ts';
import { BadgeEvent } from './events.ts';
import { badgeErrors } from './messages.ts';
import { type BadgeState, evolveBadge, initialBadgeState } from './state.ts';

/*
 * BADGES (§3 user_badges, §4 celebration).
 *
 * Which badges a user has earned is decided elsewhere, by pure criteria over facts that only grow
 * (gamification/badge-criteria.ts), so a badge is never taken back. This stream only makes the award happen once:
 * each type is earned at most once (the award process may see its cause again after a crash), and celebrated at
 * most once, after it was earned, so the pop-up is not shown again on another device. The command carries the type
 * as the client or process sent it; the decider checks it rather than trust the caller.
 */

type Decision = Either<DomainError, readonly BadgeEvent[]>;

/** Decides a badge command: each type is earned at most once and celebrated at most once, after being earned. */
export function decideBadge(command: BadgeCommand, state: BadgeState): Decision {
  const parsed = BadgeType.safeParse(command.badgeType);
  if (!parsed.success) return left(badgeErrors.unknownType());
  const badgeType = parsed.data;
  const badge = state.badges.get(badgeType);
  switch (command.type) {
    case 'AwardBadge': {
      if (badge) return left(badgeErrors.alreadyEarned());
      const { userId, badgeId, now } = command;
      return right([{ type: 'BadgeEarned', data: { userId, badgeId, badgeType, earnedAt: isoMillis(now) } }]);
    }
    case 'CelebrateBadge': {
      if (!badge) return left(badgeErrors.notEarned());
      if (badge.status === 'celebrated') return left(badgeErrors.alreadyCelebrated());
      const data = { userId: command.userId, badgeType, celebratedAt: isoMillis(command.now) };
      return right([{ type: 'BadgeCelebrated', data }]);
    }
    default: {
      const unreachable: never = command;
      return unreachable;
    }
  }
}

/** A user's badge collection (stream `badges-<userId>`). */
export const badgeDecider = defineDecider<BadgeCommand, BadgeEvent, BadgeState>({
  initialState: initialBadgeState,
  evolve: evolveBadge,
  decide: decideBadge,
  eventSchema: BadgeEvent,
});
