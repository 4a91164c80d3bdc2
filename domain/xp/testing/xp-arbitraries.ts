import fc from 'fast-check';
import { isRight } from 'fp-ts/lib/Either.js';
import { Temporal } from 'temporal-polyfill';
import type { XpLedgerCommand } from '../commands.ts';
import { xpLedgerDecider } from '../decide.ts';
import type { XpLedgerEvent } from '../events.ts';

/** Arbitrary XP ledger commands for property tests: few runs, goals and badges, so repeats and revocations happen. */
const now = Temporal.Instant.from('2026-11-18T12:00:00.000Z');
const RUNS = ['r1', 'r2', 'r3', 'r4', 'r5', 'r6'];
const WEEKS = ['2026-10-26', '2026-11-02', '2026-11-09', '2026-11-16'];

export const xpCommand: fc.Arbitrary<XpLedgerCommand> = fc.oneof(
  fc.record({
    type: fc.constant('AwardRunXp' as const),
    userId: fc.constant('u1'),
    runId: fc.constantFrom(...RUNS),
    distanceKm: fc.integer({ min: 1, max: 4200 }).map((n) => n / 100),
    startedAt: fc.integer({ min: 0, max: 20 }).map((h) => `2026-11-1${Math.floor(h / 10) + 1}T0${h % 10}:00:00Z`),
    localStart: fc.constant('2026-11-18T07:00:00'),
    xpMultiplier: fc.constantFrom(1, 2),
    now: fc.constant(now),
  }),
  fc.record({
    type: fc.constant('RevokeRunXp' as const),
    userId: fc.constant('u1'),
    runId: fc.constantFrom(...RUNS),
    now: fc.constant(now),
  }),
  fc.record({
    type: fc.constant('SettleGoalWeek' as const),
    userId: fc.constant('u1'),
    goalId: fc.constantFrom('g1', 'g2', 'g3', 'g4'),
    weekStart: fc.constantFrom(...WEEKS),
    result: fc.constantFrom('completed' as const, 'missed' as const),
    now: fc.constant(now),
  }),
  fc.record({
    type: fc.constant('AwardBadgeXp' as const),
    userId: fc.constant('u1'),
    badgeId: fc.constantFrom('b1', 'b2'),
    badgeName: fc.constant('First run'),
    now: fc.constant(now),
  }),
);

/** The ledger's events for a list of commands, each decided against the events before it. */
export function ledgerEvents(commands: readonly XpLedgerCommand[]): XpLedgerEvent[] {
  const events: XpLedgerEvent[] = [];
  let state = xpLedgerDecider.initialState;
  for (const command of commands) {
    const decision = xpLedgerDecider.decide(command, state);
    if (!isRight(decision)) continue;
    for (const e of decision.right) {
      events.push(e);
      state = xpLedgerDecider.evolve(state, e);
    }
  }
  return events;
}
