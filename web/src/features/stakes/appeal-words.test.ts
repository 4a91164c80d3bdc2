import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  appealStatusText,
  awaitsDecision,
  canAppeal,
  inStakeWeek,
  leftOutOfStake,
  refundText,
  weekRunsSince,
} from './appeal-words.ts';

const ZONE = 'America/New_York';
const verification = (xp: number, stake: number) =>
  ({ xp_distance_km: xp, stake_distance_km: stake }) as Parameters<typeof leftOutOfStake>[0]['verification'];

describe('the appeal and refund on a stake card (issue 25)', () => {
  it('says where an appeal stands, with its decide-by date in the runner’s zone and the vouches', () => {
    const open = { status: 'open', decide_by: '2026-11-23T08:00:00.000Z', vouches: 0 } as const;
    expect(appealStatusText({ appeal: open }, ZONE)).toBe('Appeal sent · decided by Mon, Nov 23, 3:00 AM');
    expect(appealStatusText({ appeal: { ...open, status: 'referred', vouches: 1 } }, ZONE)).toBe(
      'Appeal under review · decided by Mon, Nov 23, 3:00 AM · 1 group member vouched',
    );
    expect(appealStatusText({ appeal: { ...open, status: 'referred', vouches: 2 } }, ZONE)).toMatch(
      /2 group members vouched$/,
    );
    expect(appealStatusText({ appeal: { ...open, status: 'accepted' } }, ZONE)).toBe(
      'Appeal accepted: nothing is taken.',
    );
    expect(appealStatusText({ appeal: { ...open, status: 'refused' } }, ZONE)).toBe('Appeal refused.');
  });

  it('a demo stake without the new fields reads as no appeal, no refund, nothing to appeal', () => {
    expect(appealStatusText({}, ZONE)).toBeNull();
    expect(appealStatusText({ appeal: null }, ZONE)).toBeNull();
    expect(refundText({})).toBeNull();
    expect(canAppeal({})).toBe(false);
    expect(canAppeal({ appealable: true })).toBe(true);
  });

  it('a stake waits for a decision while its appeal is open or referred, or its refund requested', () => {
    const appeal = (status: 'open' | 'referred' | 'accepted' | 'refused') => ({
      appeal: { status, decide_by: '2026-11-23T08:00:00.000Z', vouches: 0 },
    });
    expect(awaitsDecision(appeal('open'))).toBe(true);
    expect(awaitsDecision(appeal('referred'))).toBe(true);
    expect(awaitsDecision(appeal('accepted'))).toBe(false);
    expect(awaitsDecision(appeal('refused'))).toBe(false);
    expect(awaitsDecision({ refund: { status: 'requested', amount_cents: 1000 } })).toBe(true);
    expect(awaitsDecision({ refund: { status: 'done', amount_cents: 1000 } })).toBe(false);
    expect(awaitsDecision({})).toBe(false);
  });

  it('says a refund in dollars and cents, given or on its way', () => {
    expect(refundText({ refund: { status: 'done', amount_cents: 1000 } })).toBe(
      '$10.00 refunded to your card: a run of that week completed your goal.',
    );
    expect(refundText({ refund: { status: 'requested', amount_cents: 500 } })).toBe(
      '$5.00 is being refunded to your card: a run of that week completed your goal.',
    );
  });

  it('a run belongs to the week of its day in the goal’s zone', () => {
    // Sunday 22 at 11:30 PM in New York is Monday 23 in UTC: still the week of Nov 16 there.
    expect(inStakeWeek({ started_at: '2026-11-23T04:30:00.000Z' }, '2026-11-16', ZONE)).toBe(true);
    expect(inStakeWeek({ started_at: '2026-11-23T05:30:00.000Z' }, '2026-11-16', ZONE)).toBe(false);
    expect(inStakeWeek({ started_at: '2026-11-16T05:00:00.000Z' }, '2026-11-16', ZONE)).toBe(true);
    expect(inStakeWeek({ started_at: '2026-11-16T04:59:00.000Z' }, '2026-11-16', ZONE)).toBe(false);
  });

  it('every run of the week starts after the instant the runs are listed from, in any zone', () => {
    const zones = ['Pacific/Kiritimati', 'Pacific/Pago_Pago', 'Asia/Kolkata', ZONE, 'UTC'];
    fc.assert(
      fc.property(
        fc.integer({ min: Date.parse('2020-01-01'), max: Date.parse('2030-01-01') }),
        fc.constantFrom(...zones),
        (ms, zone) => {
          const started = new Date(ms).toISOString();
          const day = new Intl.DateTimeFormat('en-CA', { timeZone: zone }).format(new Date(ms));
          const monday = new Date(`${day}T00:00:00Z`);
          monday.setUTCDate(monday.getUTCDate() - ((monday.getUTCDay() + 6) % 7));
          const weekStart = monday.toISOString().slice(0, 10);
          expect(inStakeWeek({ started_at: started }, weekStart, zone)).toBe(true);
          expect(Date.parse(weekRunsSince(weekStart))).toBeLessThanOrEqual(ms);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('lists a run counted for XP more than for the stake, not one counted alike', () => {
    expect(leftOutOfStake({ verification: verification(5, 0) })).toBe(true);
    expect(leftOutOfStake({ verification: verification(5, 4.2) })).toBe(true);
    expect(leftOutOfStake({ verification: verification(5, 5) })).toBe(false);
    expect(leftOutOfStake({ verification: verification(5.0001, 5) })).toBe(false);
  });
});
