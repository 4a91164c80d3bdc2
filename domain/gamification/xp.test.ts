import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { levelForXp } from './levels.ts';
import {
  badgeXpEntry,
  goalXpEntry,
  runDeletedXpEntry,
  runXp,
  runXpEntry,
  streakXpEntry,
  totalXp,
  type XpEntry,
} from './xp.ts';

describe('XP rules', () => {
  it('gives 10 XP per km, rounded half up to whole XP', () => {
    expect(runXp(5)).toEqual({ base: 50, surgeBonus: 0, total: 50 });
    expect(runXp(5.05).total).toBe(51);
    expect(runXp(5.04).total).toBe(50);
    expect(runXp(0).total).toBe(0);
  });
  it('multiplies a surge run and reports the bonus', () => {
    expect(runXp(5, 2)).toEqual({ base: 50, surgeBonus: 50, total: 100 });
    expect(runXp(5.05, 1.1).total).toBe(56);
    expect(runXp(3.33, 1.5)).toEqual({ base: 33, surgeBonus: 17, total: 50 });
  });
  it('describes runs, naming the surge', () => {
    expect(runXpEntry('r1', 5)).toEqual({
      source_type: 'run',
      source_id: 'r1',
      xp_amount: 50,
      description: 'Run: 5.00 km',
    });
    expect(runXpEntry('r1', 5, 2).description).toBe('Run: 5.00 km (Surge 2x)');
    expect(runXpEntry('r1', 5, 1.5).description).toBe('Run: 5.00 km (Surge 1.5x)');
  });
  it('gives 250 per goal, 100 per streak week and 150 per badge', () => {
    expect(goalXpEntry('g1')).toEqual({
      source_type: 'goal',
      source_id: 'g1',
      xp_amount: 250,
      description: 'Weekly goal completed',
    });
    expect(streakXpEntry('2025-03-03', 3)).toEqual({
      source_type: 'streak',
      source_id: '2025-03-03',
      xp_amount: 100,
      description: 'Streak: 3 weeks',
    });
    expect(streakXpEntry('2025-03-03', 1).description).toBe('Streak: 1 week');
    expect(badgeXpEntry('b1', 'First Run')).toEqual({
      source_type: 'badge',
      source_id: 'b1',
      xp_amount: 150,
      description: 'Badge earned: First Run',
    });
  });
  it('writes a negative correction when a run is deleted, once', () => {
    const history = [runXpEntry('r1', 5, 2), goalXpEntry('g1')];
    const correction = runDeletedXpEntry('r1', 5, history);
    expect(correction).toEqual({
      source_type: 'run',
      source_id: 'r1',
      xp_amount: -100,
      description: 'Run deleted: 5.00 km',
    });
    expect(totalXp([...history, correction!])).toBe(250);
    expect(runDeletedXpEntry('r1', 5, [...history, correction!])).toBeNull();
    expect(runDeletedXpEntry('r9', 5, history)).toBeNull();
  });
});

describe('XP properties', () => {
  const km = fc.integer({ min: 0, max: 10_000 }).map((h) => h / 100);
  const multiplier = fc.constantFrom(1, 1.25, 1.5, 2, 3, 5);
  const history = fc.array(
    fc.oneof(
      fc.tuple(fc.uuid(), km, multiplier).map(([id, d, m]) => runXpEntry(id, d, m)),
      fc.uuid().map(goalXpEntry),
      fc.uuid().map((id) => badgeXpEntry(id, 'x')),
    ),
    { maxLength: 20 },
  );

  it('never decreases total XP or level when a run is added', () => {
    fc.assert(
      fc.property(history, km, multiplier, (entries: XpEntry[], d, m) => {
        const after = [...entries, runXpEntry('new', d, m)];
        expect(totalXp(after)).toBeGreaterThanOrEqual(totalXp(entries));
        expect(levelForXp(totalXp(after))).toBeGreaterThanOrEqual(levelForXp(totalXp(entries)));
      }),
    );
  });
  it('gives integer XP, and a surge never gives less than no surge', () => {
    fc.assert(
      fc.property(km, multiplier, (d, m) => {
        const xp = runXp(d, m);
        expect(Number.isInteger(xp.total)).toBe(true);
        expect(xp.total).toBeGreaterThanOrEqual(runXp(d).total);
        expect(xp.base + xp.surgeBonus).toBe(xp.total);
      }),
    );
  });
  it('returns the total to what it was without the run after a deletion', () => {
    fc.assert(
      fc.property(history, km, multiplier, (entries: XpEntry[], d, m) => {
        const withRun = [...entries, runXpEntry('del', d, m)];
        const correction = runDeletedXpEntry('del', d, withRun);
        expect(totalXp(correction ? [...withRun, correction] : withRun)).toBe(totalXp(entries));
      }),
    );
  });
});
