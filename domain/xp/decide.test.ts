import { Temporal } from 'temporal-polyfill';
import { describe, expect, it } from 'vitest';
import { foldEvents } from '../shared/decider.ts';
import { given } from '../shared/testing/given-when-then.ts';
import type { XpLedgerCommand } from './commands.ts';
import { xpLedgerDecider } from './decide.ts';
import type { XpLedgerEvent } from './events.ts';
import { badgeFactsOf } from './state.ts';

const now = Temporal.Instant.from('2026-11-18T12:00:00.000Z');
const award = (runId: string, distanceKm: number, xpMultiplier = 1): XpLedgerCommand => ({
  type: 'AwardRunXp',
  userId: 'u1',
  runId,
  distanceKm,
  startedAt: '2026-11-18T06:00:00Z',
  localStart: '2026-11-18T07:00:00',
  xpMultiplier,
  now,
});
const settle = (goalId: string, weekStart: string, result: 'completed' | 'missed'): XpLedgerCommand => ({
  type: 'SettleGoalWeek',
  userId: 'u1',
  goalId,
  weekStart,
  result,
  now,
});

function run(commands: readonly XpLedgerCommand[]): XpLedgerEvent[] {
  const events: XpLedgerEvent[] = [];
  for (const command of commands) events.push(...given(xpLedgerDecider, events).when(command).events());
  return events;
}

describe('XP ledger', () => {
  it('pays a run once, with the surge bonus named in the description', () => {
    const events = run([award('r1', 5, 2), award('r1', 5, 2)]);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      type: 'RunXpAwarded',
      data: { xpAmount: 100, baseXp: 50, surgeBonus: 50, description: 'Run: 5.00 km (Surge 2x)' },
    });
  });

  it('pays once per stretch of time and per recording: overlapping or repeated runs earn nothing', () => {
    const timed = (runId: string, startedAt: string, endedAt: string, trackKey: string | null): XpLedgerCommand =>
      ({
        ...award(runId, 5),
        startedAt,
        endedAt,
        trackKey,
      }) as XpLedgerCommand;
    const events = run([
      timed('r1', '2026-11-18T06:00:00Z', '2026-11-18T06:30:00Z', 'k1'),
      timed('r2', '2026-11-18T06:10:00Z', '2026-11-18T06:40:00Z', 'k2'), // overlaps r1
      timed('r3', '2026-11-19T06:00:00Z', '2026-11-19T06:30:00Z', 'k1'), // r1's track sent again
      timed('r4', '2026-11-18T06:29:30Z', '2026-11-18T07:00:00Z', 'k4'), // within the one-minute tolerance
      { type: 'RevokeRunXp', userId: 'u1', runId: 'r1', now },
      timed('r5', '2026-11-18T06:05:00Z', '2026-11-18T06:25:00Z', 'k5'), // r1 was deleted: its time is free again
    ]);
    expect(events.filter((e) => e.type === 'RunXpAwarded').map((e) => e.data.runId)).toEqual(['r1', 'r4', 'r5']);
  });

  it('revokes a deleted run once, surge bonus included, and forgets it for badges', () => {
    const events = run([
      award('r1', 5, 2),
      { type: 'RevokeRunXp', userId: 'u1', runId: 'r1', now },
      { type: 'RevokeRunXp', userId: 'u1', runId: 'r1', now },
    ]);
    expect(events.map((e) => e.type)).toEqual(['RunXpAwarded', 'RunXpRevoked']);
    const state = foldEvents(xpLedgerDecider, events);
    expect(state.totalXp).toBe(0);
    expect(badgeFactsOf(state).runs).toEqual([]);
  });

  it('settles a completed week with goal and streak XP, once per goal', () => {
    const events = run([
      settle('g1', '2026-11-09', 'completed'),
      settle('g2', '2026-11-16', 'completed'),
      settle('g2', '2026-11-16', 'completed'),
    ]);
    expect(events.map((e) => e.type)).toEqual([
      'WeekSettled',
      'XpAwarded',
      'XpAwarded',
      'WeekSettled',
      'XpAwarded',
      'XpAwarded',
    ]);
    const state = foldEvents(xpLedgerDecider, events);
    expect(state.streak).toEqual({ current: 2, longest: 2, lastCompletedWeek: '2026-11-16' });
    expect(state.totalXp).toBe(700);
  });

  it('a missed week resets the streak and earns nothing', () => {
    const events = run([settle('g1', '2026-11-09', 'completed'), settle('g2', '2026-11-16', 'missed')]);
    expect(events.at(-1)).toMatchObject({ type: 'WeekSettled', data: { currentStreak: 0, longestStreak: 1 } });
  });

  it('pays a badge once', () => {
    const badge: XpLedgerCommand = { type: 'AwardBadgeXp', userId: 'u1', badgeId: 'b1', badgeName: 'First Steps', now };
    expect(run([badge, badge])).toHaveLength(1);
  });
});
