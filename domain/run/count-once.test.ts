import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type CountableRun, countOnce } from './count-once.ts';
import type { VerificationV1, VerificationV2 } from './verification.ts';

const T0 = Date.parse('2026-11-17T07:00:00Z');
const MIN = 60_000;
// Each property was run once with numRuns 5000 before it was committed.
const RUNS = { numRuns: Number(process.env.PROPERTY_RUNS ?? 300) };

const judged = (stakeKm: number, trackKey: string | null = null): VerificationV2 => ({
  verdict: 'verified',
  reasons: [],
  trustedDistanceKm: stakeKm,
  stakeDistanceKm: stakeKm,
  claimedDistanceKm: stakeKm,
  excluded: [],
  stakeStretches: [],
  trackKey,
  policyVersion: 2,
});
const run = (
  runId: string,
  startMin: number,
  minutes: number,
  km: number,
  recordedMin = startMin + minutes,
  key: string | null = null,
): CountableRun => ({
  runId,
  startedAtMs: T0 + startMin * MIN,
  endedAtMs: T0 + (startMin + minutes) * MIN,
  recordedAtMs: T0 + recordedMin * MIN,
  verification: judged(km, key),
});
const total = (runs: readonly CountableRun[]) =>
  [...countOnce(runs, 'staked_goal').values()].reduce((sum, c) => sum + c.km, 0);

describe('count once', () => {
  it('the same body sent 10 times counts once: the first recorded', () => {
    const copies = Array.from({ length: 10 }, (_, i) => run(`r${i}`, 0, 30, 5, 31, 'k1'));
    const counted = countOnce(copies, 'staked_goal');
    expect(total(copies)).toBe(5);
    expect(counted.get('r0')).toEqual({ km: 5, outrankedBy: null });
    expect(counted.get('r7')).toEqual({ km: 0, outrankedBy: { runId: 'r0', rule: 'same_track' } });
  });

  it('a different track overlapping an earlier run: the longer counts, the other not', () => {
    const counted = countOnce([run('a', 0, 30, 5), run('b', 10, 30, 8)], 'staked_goal');
    expect(counted.get('a')).toEqual({ km: 0, outrankedBy: { runId: 'b', rule: 'overlap' } });
    expect(counted.get('b')?.km).toBe(8);
  });

  it('the same track shifted to another day counts once; deleting the first lets the copy count', () => {
    const original = run('a', 0, 30, 5, 31, 'k1');
    const copy = run('b', 3 * 24 * 60, 30, 5, 3 * 24 * 60 + 31, 'k1');
    expect(total([original, copy])).toBe(5);
    expect(countOnce([original, copy], 'staked_goal').get('b')?.outrankedBy).toEqual({
      runId: 'a',
      rule: 'same_track',
    });
    expect(total([copy])).toBe(5);
  });

  it('back-to-back runs within the one-minute tolerance both count', () => {
    expect(total([run('a', 0, 30, 5), run('b', 29.5, 30, 5)])).toBe(10);
  });

  it('version 1 verdicts are left as they were counted', () => {
    const old: VerificationV1 = { verdict: 'verified', reasons: [], trustedDistanceKm: 5, policyVersion: 1 };
    const legacy = { ...run('old', 0, 30, 5), verification: old };
    expect(total([legacy, run('new', 0, 30, 5)])).toBe(10);
  });
});

const runsArb = fc
  .array(
    fc.record({
      start: fc.integer({ min: 0, max: 600 }),
      minutes: fc.integer({ min: 1, max: 120 }),
      km: fc.constantFrom(0, 1, 2.5, 5, 5, 10),
      recordedLag: fc.integer({ min: 0, max: 600 }),
      key: fc.option(fc.constantFrom('k1', 'k2', 'k3'), { freq: 3 }),
    }),
    { maxLength: 25 },
  )
  .map((list) =>
    list.map((r, i) => run(`r${i}`, r.start, r.minutes, r.km, r.start + r.minutes + r.recordedLag, r.key)),
  );

describe('property: count once', () => {
  it('runs that count never overlap each other, never repeat a track, and never count more than alone', () => {
    fc.assert(
      fc.property(runsArb, (runs) => {
        const counted = countOnce(runs, 'staked_goal');
        const kept = runs.filter((r) => (counted.get(r.runId)?.km ?? 0) > 0);
        for (const r of runs)
          expect(counted.get(r.runId)!.km).toBeLessThanOrEqual(
            r.verification.policyVersion === 2 ? r.verification.stakeDistanceKm : 0,
          );
        for (const a of kept) {
          for (const b of kept) {
            if (a === b) continue;
            const shared = Math.min(a.endedAtMs, b.endedAtMs) - Math.max(a.startedAtMs, b.startedAtMs);
            expect(shared).toBeLessThanOrEqual(MIN);
            const keyA = a.verification.policyVersion === 2 ? a.verification.trackKey : null;
            const keyB = b.verification.policyVersion === 2 ? b.verification.trackKey : null;
            if (keyA !== null) expect(keyB).not.toBe(keyA);
          }
        }
      }),
      RUNS,
    );
  });

  it('sending any run again, at the same time or shifted, adds nothing', () => {
    fc.assert(
      fc.property(runsArb, fc.nat(), fc.integer({ min: -5000, max: 5000 }), (runs, pick, shiftMin) => {
        fc.pre(runs.length > 0);
        const original = runs[pick % runs.length]!;
        const key = `copy-of-${original.runId}`;
        const keyed = runs.map((r) =>
          r === original
            ? {
                ...r,
                verification: {
                  ...judged(r.verification.policyVersion === 2 ? r.verification.stakeDistanceKm : 0, key),
                },
              }
            : r,
        );
        const resent = {
          ...original,
          runId: 'resent',
          startedAtMs: original.startedAtMs + shiftMin * MIN,
          endedAtMs: original.endedAtMs + shiftMin * MIN,
          recordedAtMs: original.recordedAtMs + 100_000 * MIN,
          verification: keyed.find((r) => r.runId === original.runId)!.verification,
        };
        expect(countOnce([...keyed, resent], 'staked_goal').get('resent')!.km).toBe(0);
        expect(total([...keyed, resent])).toBe(total(keyed));
      }),
      RUNS,
    );
  });
});
