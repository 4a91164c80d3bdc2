import { describe, expect, it } from 'vitest';
import { given } from '../gamification/testing.ts';
import { foldEvents } from '../shared/decider.ts';
import { badgeToCelebrate } from './celebration.ts';
import { badgeDecider } from './decide.ts';
import type { BadgeEvent } from './events.ts';

const now = '2025-03-03T10:00:00Z';
const award = (badgeType: string, badgeId = 'b1') =>
  ({ type: 'AwardBadge', userId: 'u1', badgeId, badgeType, now }) as const;
const celebrate = (badgeType: string) => ({ type: 'CelebrateBadge', userId: 'u1', badgeType, now }) as const;
const earned = (badgeType: 'first_run' | 'first_goal', earnedAt = now, badgeId = 'b1'): BadgeEvent => ({
  type: 'BadgeEarned',
  data: { userId: 'u1', badgeId, badgeType, earnedAt },
});
const celebrated: BadgeEvent = {
  type: 'BadgeCelebrated',
  data: { userId: 'u1', badgeType: 'first_run', celebratedAt: now },
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

describe('which badge to celebrate', () => {
  it('picks the newest uncelebrated badge of the last 7 days', () => {
    const state = foldEvents(badgeDecider, [
      earned('first_run', '2025-03-01T10:00:00Z', 'b1'),
      earned('first_goal', '2025-03-02T10:00:00Z', 'b2'),
    ]);
    expect(badgeToCelebrate(state, now)).toEqual({ badgeType: 'first_goal', badgeId: 'b2' });
  });
  it('skips celebrated badges and ignores ones older than 7 days', () => {
    const state = foldEvents(badgeDecider, [earned('first_run', '2025-03-02T10:00:00Z'), celebrated]);
    expect(badgeToCelebrate(state, now)).toBeNull();
    const old = foldEvents(badgeDecider, [earned('first_goal', '2025-02-24T09:59:59Z')]);
    expect(badgeToCelebrate(old, now)).toBeNull();
    const edge = foldEvents(badgeDecider, [earned('first_goal', '2025-02-24T10:00:00Z')]);
    expect(badgeToCelebrate(edge, now)).toEqual({ badgeType: 'first_goal', badgeId: 'b1' });
  });
});
