import { describe, expect, it } from 'vitest';
import { NO_STREAK } from './streaks.ts';
import { settleWeek } from './week-settlement.ts';

describe('settling a week', () => {
  it('awards goal and streak XP for a completed week and extends the streak', () => {
    const first = settleWeek(NO_STREAK, 'g1', { weekStart: '2025-03-03', result: 'completed' });
    const second = settleWeek(first.streak, 'g2', { weekStart: '2025-03-10', result: 'completed' });
    expect(second.streak).toEqual({ current: 2, longest: 2, lastCompletedWeek: '2025-03-10' });
    expect(second.xp).toEqual([
      { source_type: 'goal', source_id: 'g2', xp_amount: 250, description: 'Weekly goal completed' },
      { source_type: 'streak', source_id: '2025-03-10', xp_amount: 100, description: 'Streak: 2 weeks' },
    ]);
  });
  it('earns nothing for a missed week, and nothing for a replay', () => {
    const first = settleWeek(NO_STREAK, 'g1', { weekStart: '2025-03-03', result: 'completed' });
    expect(settleWeek(first.streak, 'g2', { weekStart: '2025-03-10', result: 'missed' })).toEqual({
      streak: { current: 0, longest: 1, lastCompletedWeek: '2025-03-03' },
      xp: [],
    });
    expect(settleWeek(first.streak, 'g1', { weekStart: '2025-03-03', result: 'completed' })).toEqual({
      streak: first.streak,
      xp: [],
    });
  });
});
