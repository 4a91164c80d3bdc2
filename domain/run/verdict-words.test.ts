import { describe, expect, it } from 'vitest';
import { spokenDuration, stakeCountSentence } from './verdict-words.ts';
import type { ExcludedPart } from './verification.ts';

const gap = (sec: number, stretches = 1): ExcludedPart => ({ reason: 'sparse_gps', km: 1.1, sec, fixes: 0, stretches });
const facts = { claimedKm: 5, stakeKm: 5, reasons: [], excluded: [], outrankedBy: null } as const;

describe('the verdict in plain words', () => {
  it('says what counted toward a stake and why the rest did not', () => {
    expect(stakeCountSentence(facts)).toBe('Counted all 5.00 km toward your stake');
    expect(stakeCountSentence({ ...facts, stakeKm: 3.9, reasons: ['sparse_gps'], excluded: [gap(360)] })).toBe(
      'Counted 3.90 of 5.00 km toward your stake: a GPS gap of 6 min was left out',
    );
    expect(stakeCountSentence({ ...facts, stakeKm: 3.9, reasons: ['sparse_gps'], excluded: [gap(540, 3)] })).toBe(
      'Counted 3.90 of 5.00 km toward your stake: 3 GPS gaps (9 min in all) were left out',
    );
    expect(
      stakeCountSentence({
        ...facts,
        stakeKm: 0,
        reasons: ['teleport_segment', 'walking_pace'],
        excluded: [{ reason: 'teleport_segment', km: 0.6, sec: 0, fixes: 1, stretches: 0 }],
      }),
    ).toBe(
      'Counted 0.00 of 5.00 km toward your stake: walking pace does not count toward a stake; GPS jumps (0.60 km) were left out',
    );
  });

  it('speaks of a stake only when the week has one: a free goal, or no goal at all', () => {
    expect(stakeCountSentence({ ...facts, claimedKm: 0.45, stakeKm: 0.45 }, 'km', 'goal')).toBe(
      'Counted all 0.45 km toward your goal',
    );
    expect(stakeCountSentence({ ...facts, claimedKm: 0.45, stakeKm: 0.45 }, 'km', null)).toBe('Counted all 0.45 km');
    // A free goal counts what XP counts: walking pace is no reason it counted less.
    expect(stakeCountSentence({ ...facts, reasons: ['walking_pace'] }, 'km', 'goal')).toBe(
      'Counted all 5.00 km toward your goal',
    );
    expect(
      stakeCountSentence({ ...facts, stakeKm: 3.9, reasons: ['sparse_gps'], excluded: [gap(360)] }, 'mi', 'goal'),
    ).toBe('Counted 2.42 of 3.11 mi toward your goal: a GPS gap of 6 min was left out');
  });

  it('names the run that counts instead, and speaks miles to a runner who uses them', () => {
    expect(stakeCountSentence({ ...facts, outrankedBy: { runId: 'r1', rule: 'overlap' } })).toBe(
      'Counted 0 of 5.00 km toward your stake: it overlaps another run you logged, which counts instead',
    );
    expect(stakeCountSentence({ ...facts, outrankedBy: { runId: 'r1', rule: 'same_track' } })).toBe(
      'Counted 0 of 5.00 km toward your stake: the same track was already logged',
    );
    expect(stakeCountSentence(facts, 'mi')).toBe('Counted all 3.11 mi toward your stake');
  });

  it('speaks durations the way people do', () => {
    expect([45, 360, 3600, 3900].map(spokenDuration)).toEqual(['45 s', '6 min', '1 h', '1 h 5 min']);
  });
});
