import fc from 'fast-check';
import { isRight } from 'fp-ts/lib/Either.js';
import { Temporal } from 'temporal-polyfill';
import { describe, expect, it } from 'vitest';
import { foldEvents } from '../shared/decider.ts';
import { given } from '../shared/testing/given-when-then.ts';
import type { SurgeCommand } from './commands.ts';
import { surgeDecider } from './decide.ts';
import type { SurgeEvent } from './events.ts';
import { activeSurgeAt, secondsUntilEnd, surgeStatusAt, xpMultiplierAt } from './state.ts';

const at = '2025-03-03T10:00:00.000Z';
const now = Temporal.Instant.from(at);
const schedule = (surgeId: string, startsAt: string, endsAt: string, xpMultiplier = 2) =>
  ({ type: 'ScheduleSurge', surgeId, xpMultiplier, startsAt, endsAt, now }) as const;
const scheduled = (surgeId: string, startsAt: string, endsAt: string, xpMultiplier = 2): SurgeEvent => ({
  type: 'SurgeScheduled',
  data: { surgeId, xpMultiplier, startsAt, endsAt, scheduledAt: at },
});
const noon = scheduled('s1', '2025-03-03T12:00:00Z', '2025-03-03T14:00:00Z');

describe('ScheduleSurge', () => {
  it('schedules a surge', () => {
    given(surgeDecider)
      .when(schedule('s1', '2025-03-03T12:00:00Z', '2025-03-03T14:00:00Z'))
      .then([noon]);
  });
  it('accepts a multiplier of 1.5 and of exactly 5, and a surge starting now', () => {
    given(surgeDecider)
      .when(schedule('s1', at, '2025-03-03T14:00:00Z', 5))
      .then([scheduled('s1', at, '2025-03-03T14:00:00Z', 5)]);
    given(surgeDecider)
      .when(schedule('s1', at, '2025-03-03T14:00:00Z', 1.5))
      .then([scheduled('s1', at, '2025-03-03T14:00:00Z', 1.5)]);
  });
  it('refuses a multiplier of 1 or less, or not a number', () => {
    for (const m of [1, 0.5, -2, Number.NaN]) {
      given(surgeDecider)
        .when(schedule('s1', at, '2025-03-03T14:00:00Z', m))
        .thenRejects('multiplier_too_low', 'Surge multiplier must be greater than 1');
    }
  });
  it('refuses a multiplier above 5', () => {
    given(surgeDecider)
      .when(schedule('s1', at, '2025-03-03T14:00:00Z', 5.5))
      .thenRejects('multiplier_too_high', 'Surge multiplier must be at most 5');
  });
  it('refuses an end at or before the start', () => {
    given(surgeDecider)
      .when(schedule('s1', '2025-03-03T14:00:00Z', '2025-03-03T14:00:00Z'))
      .thenRejects('surge_ends_before_start', 'Surge must end after it starts');
  });
  it('refuses a start in the past', () => {
    given(surgeDecider)
      .when(schedule('s1', '2025-03-03T09:00:00Z', '2025-03-03T14:00:00Z'))
      .thenRejects('surge_starts_in_past', 'Surge cannot start in the past');
  });
  it('refuses a duplicate id', () => {
    given(surgeDecider, [noon])
      .when(schedule('s1', '2025-03-04T12:00:00Z', '2025-03-04T14:00:00Z'))
      .thenRejects('surge_exists', 'Surge already exists');
  });
  it('refuses an overlapping surge, comparing instants across offsets', () => {
    given(surgeDecider, [noon])
      .when(schedule('s2', '2025-03-03T13:59:00Z', '2025-03-03T18:00:00Z'))
      .thenRejects('surge_overlaps', 'Surge overlaps another surge');
    given(surgeDecider, [noon])
      .when(schedule('s2', '2025-03-03T15:00:00+02:00', '2025-03-03T15:30:00+02:00'))
      .thenRejects('surge_overlaps', 'Surge overlaps another surge');
  });
  it('accepts a surge that starts exactly when another ends, or overlaps a canceled one', () => {
    given(surgeDecider, [noon])
      .when(schedule('s2', '2025-03-03T14:00:00Z', '2025-03-03T15:00:00Z'))
      .then([scheduled('s2', '2025-03-03T14:00:00Z', '2025-03-03T15:00:00Z')]);
    const canceled: SurgeEvent = { type: 'SurgeCanceled', data: { surgeId: 's1', canceledAt: at } };
    given(surgeDecider, [noon, canceled])
      .when(schedule('s2', '2025-03-03T12:30:00Z', '2025-03-03T13:00:00Z'))
      .then([scheduled('s2', '2025-03-03T12:30:00Z', '2025-03-03T13:00:00Z')]);
  });
});

describe('CancelSurge', () => {
  const cancel = (iso: string, surgeId = 's1') =>
    ({ type: 'CancelSurge', surgeId, now: Temporal.Instant.from(iso) }) as const;
  it('cancels a scheduled surge', () => {
    given(surgeDecider, [noon])
      .when(cancel(at))
      .then([{ type: 'SurgeCanceled', data: { surgeId: 's1', canceledAt: at } }]);
  });
  it('refuses an active, ended, canceled or unknown surge', () => {
    given(surgeDecider, [noon])
      .when(cancel('2025-03-03T12:00:00Z'))
      .thenRejects('surge_active', 'An active surge cannot be canceled');
    given(surgeDecider, [noon])
      .when(cancel('2025-03-03T14:00:00Z'))
      .thenRejects('surge_ended', 'Surge has already ended');
    const canceled: SurgeEvent = { type: 'SurgeCanceled', data: { surgeId: 's1', canceledAt: at } };
    given(surgeDecider, [noon, canceled]).when(cancel(at)).thenRejects('surge_canceled', 'Surge is already canceled');
    given(surgeDecider, [noon]).when(cancel(at, 's9')).thenRejects('surge_not_found', 'Surge not found');
  });
});

describe('surge status from time', () => {
  const surges = foldEvents(surgeDecider, [noon]).surges;
  const s1 = surges.get('s1')!;
  it('is scheduled, then active on [start, end), then ended', () => {
    expect(surgeStatusAt(s1, '2025-03-03T11:59:59Z')).toBe('scheduled');
    expect(surgeStatusAt(s1, '2025-03-03T12:00:00Z')).toBe('active');
    expect(surgeStatusAt(s1, '2025-03-03T13:59:59.999Z')).toBe('active');
    expect(surgeStatusAt(s1, '2025-03-03T14:00:00Z')).toBe('ended');
  });
  it('gives the multiplier in force and the countdown', () => {
    expect(xpMultiplierAt(surges.values(), '2025-03-03T13:00:00Z')).toBe(2);
    expect(xpMultiplierAt(surges.values(), '2025-03-03T15:00:00Z')).toBe(1);
    expect(activeSurgeAt(surges.values(), at)).toBeNull();
    expect(secondsUntilEnd(s1, '2025-03-03T13:59:00Z')).toBe(60);
    expect(secondsUntilEnd(s1, '2025-03-03T15:00:00Z')).toBe(0);
  });
  it('never holds two overlapping live surges, whatever is scheduled', () => {
    const base = now;
    const command: fc.Arbitrary<SurgeCommand> = fc.oneof(
      fc
        .record({ id: fc.constantFrom('a', 'b', 'c', 'd'), start: fc.nat(48), len: fc.integer({ min: 1, max: 12 }) })
        .map(
          ({ id, start, len }): SurgeCommand =>
            schedule(id, base.add({ hours: start }).toString(), base.add({ hours: start + len }).toString()),
        ),
      fc.constantFrom('a', 'b', 'c', 'd').map((id): SurgeCommand => ({ type: 'CancelSurge', surgeId: id, now })),
    );
    fc.assert(
      fc.property(fc.array(command, { maxLength: 20 }), fc.nat(60), (commands, probe) => {
        let state = surgeDecider.initialState;
        for (const c of commands) {
          const r = surgeDecider.decide(c, state);
          if (isRight(r)) state = r.right.reduce(surgeDecider.evolve, state);
        }
        const probeAt = base.add({ hours: probe }).toString();
        const active = [...state.surges.values()].filter((s) => surgeStatusAt(s, probeAt) === 'active');
        expect(active.length).toBeLessThanOrEqual(1);
      }),
    );
  });
});
