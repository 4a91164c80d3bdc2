import { Temporal } from 'temporal-polyfill';
import { describe, expect, it } from 'vitest';
import { foldEvents } from '../shared/decider.ts';
import { given } from '../shared/testing/given-when-then.ts';
import { badgeToCelebrate } from './celebration.ts';
import { badgeDecider } from './decide.ts';
import type { BadgeEvent } from './events.ts';

const at = '2025-03-03T10:00:00.000Z';
const now = Temporal.Instant.from(at);
const award = (badgeType: string, badgeId = 'b1') =>
  ({ type: 'AwardBadge', userId: 'u1', badgeId, badgeType, now }) as const;
const celebrate = (badgeType: string) => ({ type: 'CelebrateBadge', userId: 'u1', badgeType, now }) as const;
const earned = (badgeType: 'first_run' | 'first_goal', earnedAt = at, badgeId = 'b1'): BadgeEvent => ({
  type: 'BadgeEarned',
  data: { userId: 'u1', badgeId, badgeType, earnedAt },
});
const celebrated: BadgeEvent = {
  type: 'BadgeCelebrated',
  data: { userId: 'u1', badgeType: 'first_run', celebratedAt: at },
};

describe('AwardBadge', () => {
  it('awards a badge', () => {
    given(badgeDecider)
      .when(award('first_run'))
      .then([earned('first_run')]);
  });
  it('awards different badges independently', () => {
    given(badgeDecider, [earned('first_run')])
      .when(award('first_goal'))
      .then([earned('first_goal')]);
  });
  it('refuses a badge already earned', () => {
    given(badgeDecider, [earned('first_run')])
      .when(award('first_run', 'b2'))
      .thenRejects('badge_already_earned', 'Badge already earned');
  });
  it('refuses an unknown badge type', () => {
    given(badgeDecider).when(award('moon_run')).thenRejects('unknown_badge_type', 'Unknown badge type');
    given(badgeDecider).when(celebrate('moon_run')).thenRejects('unknown_badge_type', 'Unknown badge type');
  });
});

describe('CelebrateBadge', () => {
  it('celebrates an earned badge', () => {
    given(badgeDecider, [earned('first_run')])
      .when(celebrate('first_run'))
      .then([celebrated]);
  });
  it('refuses a badge not earned', () => {
    given(badgeDecider).when(celebrate('first_run')).thenRejects('badge_not_earned', 'Badge has not been earned');
  });
  it('refuses a second celebration', () => {
    given(badgeDecider, [earned('first_run'), celebrated])
      .when(celebrate('first_run'))
      .thenRejects('badge_already_celebrated', 'Badge already celebrated');
  });
});

/** The pick over a collection's uncelebrated badges (the read model lists the same ones). */
function pick(events: readonly BadgeEvent[]) {
  const state = foldEvents(badgeDecider, events);
  const uncelebrated = [...state.badges].flatMap(([badgeType, b]) =>
    b.status === 'earned' ? [{ badgeType, badgeId: b.badgeId, earnedAt: b.earnedAt }] : [],
  );
  const picked = badgeToCelebrate(uncelebrated, now);
  return picked && { badgeType: picked.badgeType, badgeId: picked.badgeId };
}

describe('which badge to celebrate', () => {
  it('picks the newest uncelebrated badge of the last 7 days', () => {
    const events = [
      earned('first_run', '2025-03-01T10:00:00Z', 'b1'),
      earned('first_goal', '2025-03-02T10:00:00Z', 'b2'),
    ];
    expect(pick(events)).toEqual({ badgeType: 'first_goal', badgeId: 'b2' });
  });
  it('skips celebrated badges and ignores ones older than 7 days', () => {
    expect(pick([earned('first_run', '2025-03-02T10:00:00Z'), celebrated])).toBeNull();
    expect(pick([earned('first_goal', '2025-02-24T09:59:59Z')])).toBeNull();
    expect(pick([earned('first_goal', '2025-02-24T10:00:00Z')])).toEqual({ badgeType: 'first_goal', badgeId: 'b1' });
  });
});
