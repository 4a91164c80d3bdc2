import { type Either, right } from 'fp-ts/lib/Either.js';
import { settleWeek } from '../gamification/week-settlement.ts';
import { badgeXpEntry, runDeletedXpEntry, runXp, runXpEntry, type XpEntry } from '../gamification/xp.ts';
import type { Decider, DomainError } from '../shared/decider.ts';
import type { XpLedgerCommand } from './commands.ts';
import type { XpAwarded, XpLedgerEvent } from './events.ts';
import { initialXpLedgerState, type XpLedgerState } from './state.ts';

type Result = Either<DomainError, readonly XpLedgerEvent[]>;

/** The stream of a user's XP ledger. */
export function xpLedgerStreamId(userId: string): string {
  return `xp-${userId}`;
}

const awardKey = (sourceType: string, sourceId: string) => `${sourceType}:${sourceId}`;

function awarded(userId: string, entry: XpEntry, now: string): XpAwarded {
  return {
    type: 'XpAwarded',
    data: {
      userId,
      sourceType: entry.source_type as XpAwarded['data']['sourceType'],
      sourceId: entry.source_id,
      xpAmount: entry.xp_amount,
      description: entry.description,
      awardedAt: now,
    },
  };
}

/**
 * Decides an award. Every command is idempotent because process managers may see an event again after a crash:
 * a run is paid once and revoked once, a goal's week settled once, a badge paid once.
 */
export function decideXpLedger(command: XpLedgerCommand, state: XpLedgerState): Result {
  switch (command.type) {
    case 'AwardRunXp': {
      if (state.runs.has(command.runId)) return right([]);
      const { userId, runId, distanceKm, startedAt, localStart, xpMultiplier, now } = command;
      const xp = runXp(distanceKm, xpMultiplier);
      const entry = runXpEntry(runId, distanceKm, xpMultiplier);
      return right([
        {
          type: 'RunXpAwarded',
          data: {
            userId,
            runId,
            distanceKm,
            startedAt,
            localStart,
            xpMultiplier,
            baseXp: xp.base,
            surgeBonus: xp.surgeBonus,
            xpAmount: xp.total,
            description: entry.description,
            awardedAt: now,
          },
        },
      ]);
    }
    case 'RevokeRunXp': {
      const run = state.runs.get(command.runId);
      if (!run || run.revoked) return right([]);
      const history: XpEntry[] = [
        { source_type: 'run', source_id: command.runId, xp_amount: run.xpAmount, description: '' },
      ];
      const entry = runDeletedXpEntry(command.runId, run.distanceKm, history);
      if (!entry) return right([]);
      const { userId, runId, now } = command;
      return right([
        {
          type: 'RunXpRevoked',
          data: { userId, runId, xpAmount: entry.xp_amount, description: entry.description, revokedAt: now },
        },
      ]);
    }
    case 'SettleGoalWeek': {
      if (state.settledGoals.has(command.goalId)) return right([]);
      const { userId, goalId, weekStart, result, now } = command;
      const settled = settleWeek(state.streak, goalId, { weekStart, result });
      const xp = settled.xp.filter((e) => !state.awarded.has(awardKey(e.source_type, e.source_id)));
      return right([
        {
          type: 'WeekSettled',
          data: {
            userId,
            goalId,
            weekStart,
            result,
            currentStreak: settled.streak.current,
            longestStreak: settled.streak.longest,
            lastCompletedWeek: settled.streak.lastCompletedWeek,
            settledAt: now,
          },
        },
        ...xp.map((e) => awarded(userId, e, now)),
      ]);
    }
    case 'AwardBadgeXp': {
      if (state.awarded.has(awardKey('badge', command.badgeId))) return right([]);
      return right([awarded(command.userId, badgeXpEntry(command.badgeId, command.badgeName), command.now)]);
    }
    default: {
      const unreachable: never = command;
      return unreachable;
    }
  }
}

/** Applies one ledger event. */
export function evolveXpLedger(state: XpLedgerState, event: XpLedgerEvent): XpLedgerState {
  switch (event.type) {
    case 'RunXpAwarded': {
      const { runId, distanceKm, localStart, xpAmount } = event.data;
      const runs = new Map(state.runs).set(runId, { distanceKm, localStart, xpAmount, revoked: false });
      return { ...state, runs, totalXp: state.totalXp + xpAmount };
    }
    case 'RunXpRevoked': {
      const run = state.runs.get(event.data.runId);
      const runs = run ? new Map(state.runs).set(event.data.runId, { ...run, revoked: true }) : state.runs;
      return { ...state, runs, totalXp: state.totalXp + event.data.xpAmount };
    }
    case 'WeekSettled': {
      const { goalId, weekStart, result, currentStreak, longestStreak, lastCompletedWeek } = event.data;
      return {
        ...state,
        settledGoals: new Set(state.settledGoals).add(goalId),
        weekOutcomes: [...state.weekOutcomes, { weekStart, result }],
        streak: { current: currentStreak, longest: longestStreak, lastCompletedWeek },
      };
    }
    case 'XpAwarded': {
      const awardedKeys = new Set(state.awarded).add(awardKey(event.data.sourceType, event.data.sourceId));
      return { ...state, awarded: awardedKeys, totalXp: state.totalXp + event.data.xpAmount };
    }
    default: {
      const unreachable: never = event;
      return unreachable;
    }
  }
}

/** A user's XP ledger (stream `xp-<userId>`): run, goal, streak-week and badge XP, and the weekly streak. */
export const xpLedgerDecider: Decider<XpLedgerCommand, XpLedgerEvent, XpLedgerState> = {
  initialState: initialXpLedgerState,
  evolve: evolveXpLedger,
  decide: decideXpLedger,
};
