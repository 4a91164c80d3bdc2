import { isLeft } from 'fp-ts/lib/Either.js';
import { Temporal } from 'temporal-polyfill';
import { describe, expect, it } from 'vitest';
import { decideCreateGoal } from '../domain/goal/create-goal.ts';
import { userGoalsDecider } from '../domain/goal/user-goals.ts';
import { stakeDecider } from '../domain/stake/decide.ts';
import { stakeCommandFor } from '../domain/stake/from-goal.ts';
import { handles } from './engine/processor.ts';
import { readModelsReachedBy } from './read-models-reached.ts';
import { allProjectors } from './registry.ts';

const asyncProjectors = allProjectors.filter((p) => !p.inline && p.eventTypes !== 'all');

/** The events a staked goal's command appends, as the domain decides them (the goal's, then its stake's). */
function stakedGoalEvents() {
  const now = Temporal.Instant.from('2026-11-18T12:00:00Z');
  const decision = decideCreateGoal(
    {
      type: 'CreateGoal',
      goalId: 'g1',
      userId: 'u1',
      goalType: 'distance',
      targetValue: 20,
      unit: 'km',
      stakeAmountCents: 1000,
      charityId: null,
      paymentMethodId: 'pm_1',
      timeZone: 'Europe/Paris',
      start: 'this_week',
      now,
    },
    userGoalsDecider.initialState,
  );
  if (isLeft(decision)) throw new Error(decision.left.message);
  const { indexEvents, goalEvents } = decision.right;
  const open = stakeCommandFor(goalEvents[0]!, now);
  if (!open) throw new Error('a staked goal opens its stake');
  const stake = stakeDecider.decide(open, stakeDecider.initialState);
  if (isLeft(stake)) throw new Error(stake.left.message);
  return [...indexEvents, ...goalEvents, ...stake.right];
}

describe('the read models a write reaches', () => {
  it('includes, for every event type a projector handles, each asynchronous projector that handles it', () => {
    const types = new Set(allProjectors.flatMap((p) => (p.eventTypes === 'all' ? [] : p.eventTypes)));
    expect(types.size).toBeGreaterThan(20);
    for (const type of types) {
      const reached = readModelsReachedBy([type]);
      expect(reached, type).toEqual(asyncProjectors.filter((p) => handles(p, type)).map((p) => p.name));
    }
  });

  it('includes stakes for a goal with a stake: its stake opens in the same transaction', () => {
    const types = stakedGoalEvents().map((e) => e.type);
    expect(types).toContain('StakeOpened');
    const reached = readModelsReachedBy(types);
    expect(reached).toContain('stakes');
    expect(reached).toContain('feed');
  });

  it('never includes an inline read model (committed with the write) or the log statistics (every type)', () => {
    const everything = readModelsReachedBy(allProjectors.flatMap((p) => (p.eventTypes === 'all' ? [] : p.eventTypes)));
    expect(everything).not.toContain('runs');
    expect(everything).not.toContain('goals');
    expect(everything).not.toContain('log-stats');
    expect(readModelsReachedBy(['RunRecorded', 'RunNotesEdited'])).toEqual(['feed']);
  });

  it('includes nothing for nothing appended, and every asynchronous read model for a write it cannot see', () => {
    expect(readModelsReachedBy([])).toEqual([]);
    expect(readModelsReachedBy(['SomethingNoProjectorReads'])).toEqual([]);
    expect(readModelsReachedBy('unknown')).toEqual(asyncProjectors.map((p) => p.name));
    expect(readModelsReachedBy('unknown')).toEqual([
      'gamification',
      'surges',
      'groups',
      'feed',
      'stakes',
      'goal-pauses',
    ]);
  });
});
