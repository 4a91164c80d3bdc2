import { Temporal } from 'temporal-polyfill';
import { describe, expect, it } from 'vitest';
import { given } from '../shared/testing/given-when-then.ts';
import { type UserGoalsEvent, userGoalsDecider } from './user-goals.ts';

// Tuesday 17 November 2026, 00:00 in New York: the Monday after is exactly 6 days ahead.
const TUESDAY_MIDNIGHT = Temporal.Instant.from('2026-11-17T05:00:00Z');
// Monday 16 November 2026, 00:00 in New York: the Monday two weeks on is exactly 14 days ahead.
const MONDAY_MIDNIGHT = Temporal.Instant.from('2026-11-16T05:00:00Z');
const NY = 'America/New_York';

const pause = (weekStart: string, now = TUESDAY_MIDNIGHT) => ({
  type: 'PauseWeek' as const,
  userId: 'u1',
  weekStart,
  timeZone: NY,
  reason: 'travel' as const,
  now,
});
const paused = (weekStart: string, now = TUESDAY_MIDNIGHT): UserGoalsEvent => ({
  type: 'WeekPaused',
  data: { userId: 'u1', weekStart, timeZone: NY, reason: 'travel', pausedAt: now.toString() },
});
const cancel = (weekStart: string, now: Temporal.Instant) => ({
  type: 'CancelWeekPause' as const,
  userId: 'u1',
  weekStart,
  now,
});
const reserved = (goalId: string, weekStart: string): UserGoalsEvent => ({
  type: 'GoalWeekReserved',
  data: { goalId, weekStart, timeZone: NY },
});

describe('pauses with notice (issue 25)', () => {
  it('keeps the pause, not its reason, in the goal index (personal data; workers remember this state in memory)', () => {
    const state = [paused('2026-11-30'), reserved('g1', '2026-12-07')].reduce(
      userGoalsDecider.evolve,
      userGoalsDecider.initialState,
    );
    expect(state.paused).toEqual({ '2026-11-30': { timeZone: NY } });
    expect(JSON.stringify(state)).not.toContain('travel');
  });

  it('refuses a week six days ahead, naming the earliest week that can be paused', () => {
    given(userGoalsDecider)
      .when(pause('2026-11-23'))
      .thenRejects(
        'pause_too_soon',
        'Pauses must be set at least 7 days ahead. The earliest week you can pause starts Monday, November 30.',
        'conflict',
      );
  });

  it('pauses a week fourteen days ahead', () => {
    given(userGoalsDecider)
      .when(pause('2026-11-30', MONDAY_MIDNIGHT))
      .then([paused('2026-11-30', MONDAY_MIDNIGHT)]);
  });

  it('pauses a week exactly seven days ahead (at least 7 days)', () => {
    given(userGoalsDecider)
      .when(pause('2026-11-23', MONDAY_MIDNIGHT))
      .then([paused('2026-11-23', MONDAY_MIDNIGHT)]);
  });

  it('refuses a week one millisecond short of seven days ahead', () => {
    given(userGoalsDecider)
      .when(pause('2026-11-23', MONDAY_MIDNIGHT.add({ milliseconds: 1 })))
      .thenRejects(
        'pause_too_soon',
        'Pauses must be set at least 7 days ahead. The earliest week you can pause starts Monday, November 30.',
        'conflict',
      );
  });

  it('the same pause twice is one pause', () => {
    given(userGoalsDecider, [paused('2026-11-30')])
      .when(pause('2026-11-30'))
      .then([]);
  });

  it('refuses a date that is not a Monday', () => {
    given(userGoalsDecider)
      .when(pause('2026-12-01'))
      .thenRejects('pause_not_monday', 'Please choose a Monday: a pause covers one Monday–Sunday week.', 'invalid');
  });

  it('refuses to pause a week that already has a goal, and says how', () => {
    given(userGoalsDecider, [reserved('g1', '2026-11-23')])
      .when(pause('2026-11-23', MONDAY_MIDNIGHT))
      .thenRejects(
        'pause_week_has_goal',
        'You already have a goal for the week of Monday, November 23. Delete that goal first if you want to pause the week.',
        'conflict',
      );
  });

  it('refuses a goal for a paused week: no goal, so no stake', () => {
    given(userGoalsDecider, [paused('2026-11-23', MONDAY_MIDNIGHT)])
      .when({ type: 'ReserveGoalWeek', goalId: 'g1', weekStart: '2026-11-23', timeZone: NY, now: MONDAY_MIDNIGHT })
      .thenRejects(
        'week_paused',
        'The week of Monday, November 23 is paused. Cancel the pause first if you want to set a goal for it.',
        'conflict',
      );
  });

  it('refuses a goal whose week, in another zone, overlaps a paused week', () => {
    // The runner moved from New York to Honolulu: Honolulu's week of Nov 23 overlaps New York's.
    given(userGoalsDecider, [paused('2026-11-23', MONDAY_MIDNIGHT)])
      .when({
        type: 'ReserveGoalWeek',
        goalId: 'g1',
        weekStart: '2026-11-23',
        timeZone: 'Pacific/Honolulu',
        now: MONDAY_MIDNIGHT,
      })
      .thenRejects(
        'week_paused',
        'The week of Monday, November 23 is paused. Cancel the pause first if you want to set a goal for it.',
        'conflict',
      );
  });

  it('cancels a pause before its week begins, even inside the seven days', () => {
    const sunday = Temporal.Instant.from('2026-11-29T23:00:00Z');
    given(userGoalsDecider, [paused('2026-11-30')])
      .when(cancel('2026-11-30', sunday))
      .then([
        { type: 'WeekPauseCanceled', data: { userId: 'u1', weekStart: '2026-11-30', canceledAt: sunday.toString() } },
      ]);
  });

  it('refuses to cancel a pause once its week has begun', () => {
    given(userGoalsDecider, [paused('2026-11-30')])
      .when(cancel('2026-11-30', Temporal.Instant.from('2026-11-30T05:00:00Z')))
      .thenRejects('pause_begun', 'This pause has already begun, so it can no longer be canceled.', 'conflict');
  });

  it('a pause not there is not found', () => {
    given(userGoalsDecider)
      .when(cancel('2026-11-30', TUESDAY_MIDNIGHT))
      .thenRejects('pause_not_found', 'Pause not found', 'not_found');
  });

  it('a canceled pause frees the week for a goal', () => {
    const events: UserGoalsEvent[] = [
      paused('2026-11-23', MONDAY_MIDNIGHT),
      {
        type: 'WeekPauseCanceled',
        data: { userId: 'u1', weekStart: '2026-11-23', canceledAt: '2026-11-17T00:00:00Z' },
      },
    ];
    const state = events.reduce(userGoalsDecider.evolve, userGoalsDecider.initialState);
    expect(state.paused).toEqual({});
  });
});
