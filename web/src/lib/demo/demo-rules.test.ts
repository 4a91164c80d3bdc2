import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { runXp } from '../../../../domain/gamification/xp.ts';
import { countedDistanceKm } from '../../../../domain/run/counting.ts';
import { type DemoRun, type DemoState, loadDemoState } from './demo-data.ts';
import { demoGoalJson } from './demo-goals.ts';
import { demoVerification } from './demo-verdict.ts';
import { demoRunXpRows, demoXp } from './demo-xp.ts';

// The demo answers from the server's own rules (goal progress, the run policy, the XP ledger); these pin that it
// does, on the cases the demo used to get wrong.

const NOW = Date.parse('2026-03-11T20:00:00Z'); // a Wednesday
const run = (id: string, startedAt: string, km: number, seconds: number): DemoRun => {
  const r: DemoRun = { id, started_at: startedAt, distance_km: km, duration_sec: seconds, source: 'gps', notes: null };
  return { ...r, verification: demoVerification(r) };
};
const state = (runs: DemoRun[], stake = 1000): DemoState => ({
  display_name: 'Demo Runner',
  timezone: 'America/New_York',
  distance_unit: 'km',
  runs,
  goals: [
    {
      id: 'g',
      type: 'distance',
      target_value: 20,
      week_start: '2026-03-09',
      stake_amount_cents: stake,
      charity_id: null,
      canceled: false,
      created_at: '2026-03-09T12:00:00Z',
    },
  ],
});

describe('the demo counts by the server’s rules', () => {
  it('pays 51 XP for 5.05 km, as the server does (not 50)', () => {
    const rows = demoRunXpRows(state([run('r', '2026-03-10T11:00:00Z', 5.05, 1800)]), NOW);
    expect(rows.get('r')?.xp_amount).toBe(51);
  });

  it('counts a car ride toward no goal and a steady run toward a staked goal', () => {
    const car = run('car', '2026-03-10T11:00:00Z', 60, 1800);
    const steady = run('steady', '2026-03-11T11:00:00Z', 8, 2700);
    expect(demoGoalJson(state([car, steady]), state([]).goals[0]!, NOW).progress).toBe(8);
  });

  it('counts overlapping runs once', () => {
    const a = run('a', '2026-03-10T11:00:00Z', 5, 1800);
    const b = run('b', '2026-03-10T11:10:00Z', 5, 1800);
    expect(demoGoalJson(state([a, b], 0), state([]).goals[0]!, NOW).progress).toBe(5);
    expect([...demoRunXpRows(state([a, b]), NOW).keys()]).toEqual(['a']);
  });

  it('the sample runs pass the run policy whole, so the sample goals read as before', () => {
    const sample = loadDemoState(NOW);
    for (const r of sample.runs) expect(r.verification?.verdict).toBe('verified');
    for (const r of sample.runs) expect(countedDistanceKm(r.verification!, 'staked_goal')).toBe(r.distance_km);
  });

  it('property: a steady run at a running pace earns what runXp gives for its distance', () => {
    fc.assert(
      fc.property(fc.integer({ min: 100, max: 4000 }), fc.integer({ min: 300, max: 420 }), (hundredths, paceSec) => {
        const km = hundredths / 100;
        const r = run('r', '2026-03-10T11:00:00Z', km, Math.round(km * paceSec));
        expect(demoRunXpRows(state([r]), NOW).get('r')?.xp_amount).toBe(runXp(km).total);
        expect(demoXp(state([r], 0), NOW).total_xp).toBeGreaterThanOrEqual(runXp(km).total);
      }),
      { numRuns: 200 },
    );
  });
});
