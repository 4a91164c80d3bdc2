import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { levelForXp, levelProgress, levelStartXp, MAX_LEVEL } from './levels.ts';
import { TIERS, tierForLevel } from './tiers.ts';

describe('levels', () => {
  it('starts level n at floor(200·(n−1)^1.7)', () => {
    expect([1, 2, 3, 10, 50].map(levelStartXp)).toEqual([0, 200, 649, 8379, 149404]);
  });
  it('gives level n for the first XP of level n, and n−1 one XP earlier (n in 1..50)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: MAX_LEVEL }), (n) => {
        expect(levelForXp(levelStartXp(n))).toBe(n);
        if (n > 1) expect(levelForXp(levelStartXp(n) - 1)).toBe(n - 1);
      }),
    );
  });
  it('never decreases as XP grows, and stays within 1..50', () => {
    fc.assert(
      fc.property(fc.nat(400_000), fc.nat(50_000), (xp, more) => {
        const a = levelForXp(xp);
        const b = levelForXp(xp + more);
        expect(b).toBeGreaterThanOrEqual(a);
        expect(a).toBeGreaterThanOrEqual(1);
        expect(b).toBeLessThanOrEqual(MAX_LEVEL);
      }),
    );
  });
  it('reports progress within a level', () => {
    expect(levelProgress(300)).toEqual({
      level: 2,
      label: '2',
      isMax: false,
      xpIntoLevel: 100,
      xpForLevel: 449,
      xpToNextLevel: 349,
      fraction: 100 / 449,
    });
    expect(levelProgress(-5).level).toBe(1);
  });
  it('shows MAX at level 50 with a full bar', () => {
    const p = levelProgress(10_000_000);
    expect(p).toMatchObject({ level: 50, label: 'MAX', isMax: true, xpToNextLevel: 0, fraction: 1 });
  });
  it('keeps the fraction in [0, 1) below MAX', () => {
    fc.assert(
      fc.property(fc.nat(150_000), (xp) => {
        const p = levelProgress(xp);
        if (!p.isMax) {
          expect(p.fraction).toBeGreaterThanOrEqual(0);
          expect(p.fraction).toBeLessThan(1);
          expect(p.xpIntoLevel + p.xpToNextLevel).toBe(p.xpForLevel);
        }
      }),
    );
  });
});

describe('tiers', () => {
  it('has ten tiers of five levels', () => {
    expect(TIERS).toHaveLength(10);
    expect(tierForLevel(1).name).toBe('Rookie Runner');
    expect(tierForLevel(5).name).toBe('Rookie Runner');
    expect(tierForLevel(6).name).toBe('Steady Strider');
    expect(tierForLevel(23)).toEqual({ name: 'Trail Blazer', fromLevel: 21, toLevel: 25 });
    expect(tierForLevel(46).name).toBe('Stride Legend');
    expect(tierForLevel(50).name).toBe('Stride Legend');
  });
});
