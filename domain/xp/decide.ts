import { type Either, right } from 'fp-ts/lib/Either.js';
import { settleWeek } from '../gamification/week-settlement.ts';
import { badgeXpEntry, runDeletedXpEntry, runXp, runXpEntry, type XpEntry } from '../gamification/xp.ts';
import { verificationLimits } from '../run/verification-policy.ts';
import { type DomainError, defineDecider } from '../shared/decider.ts';
import { isoMillis } from '../shared/instant.ts';
import type { AwardRunXp, XpLedgerCommand } from './commands.ts';
import { type XpAwarded, XpLedgerEvent } from './events.ts';
import { awardKey, evolveXpLedger, initialXpLedgerState, type XpLedgerState } from './state.ts';

/*
 * THE XP LEDGER (§9 XP rules; the amounts are gamification/xp.ts).
 *
 * Process managers pay XP as they see runs, settled goals and badges, and may see an event again after a crash, so
 * every command is idempotent: a run is paid once and revoked once, a goal's week settled once, a badge paid once.
 * A repeat decides no events rather than a refusal, which is why the ledger has no messages.ts: nothing here is a
 * user's mistake. A run shares its pay with no other run of the same person: one that overlaps a paid run in time,
 * or repeats its recording, earns nothing (first paid, first counted; the ledger never re-ranks). The ledger also
 * keeps the facts the badge rules are judged on (state.ts `badgeFactsOf`), so badges and XP see the same runs.
 */

type Decision = Either<DomainError, readonly XpLedgerEvent[]>;

/**
 * Whether a run already paid (not revoked) shares the command's time (beyond the overlap tolerance) or its track:
 * then the run was paid for once already. First paid, first counted: the ledger pays as runs arrive and never
 * re-ranks, so a duplicate stays unpaid even if the original is deleted later (XP moves no money).
 */
function alreadyPaidFor(state: XpLedgerState, command: AwardRunXp): boolean {
  if (command.endedAt === undefined) return false;
  const start = Date.parse(command.startedAt);
  const end = Date.parse(command.endedAt);
  const toleranceMs = verificationLimits.overlapToleranceSec * 1000;
  for (const run of state.runs.values()) {
    if (run.revoked) continue;
    if (command.trackKey && run.trackKey === command.trackKey) return true;
    if (run.startedAt === undefined || run.endedAt === undefined) continue;
    const shared = Math.min(end, Date.parse(run.endedAt)) - Math.max(start, Date.parse(run.startedAt));
    if (shared > toleranceMs) return true;
  }
  return false;
}

function awarded(userId: string, entry: XpEntry, awardedAt: string): XpAwarded {
  return {
    type: 'XpAwarded',
    data: {
      userId,
      sourceType: entry.source_type as XpAwarded['data']['sourceType'],
      sourceId: entry.source_id,
      xpAmount: entry.xp_amount,
      description: entry.description,
      awardedAt,
    },
  };
}

/** Decides an award; every command is idempotent (a repeat decides no events). */
export function decideXpLedger(command: XpLedgerCommand, state: XpLedgerState): Decision {
  const at = isoMillis(command.now);
  switch (command.type) {
    case 'AwardRunXp': {
      if (state.runs.has(command.runId) || alreadyPaidFor(state, command)) return right([]);
      const { userId, runId, distanceKm, startedAt, localStart, xpMultiplier } = command;
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
            ...(command.endedAt === undefined ? {} : { endedAt: command.endedAt, trackKey: command.trackKey ?? null }),
            awardedAt: at,
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
      const { userId, runId } = command;
      return right([
        {
          type: 'RunXpRevoked',
          data: { userId, runId, xpAmount: entry.xp_amount, description: entry.description, revokedAt: at },
        },
      ]);
    }
    case 'SettleGoalWeek': {
      if (state.settledGoals.has(command.goalId)) return right([]);
      const { userId, goalId, weekStart, result } = command;
      const settled = settleWeek(state.streak, goalId, { weekStart, result }, new Set(command.pausedWeeks ?? []));
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
            settledAt: at,
          },
        },
        ...xp.map((e) => awarded(userId, e, at)),
      ]);
    }
    case 'AwardBadgeXp': {
      if (state.awarded.has(awardKey('badge', command.badgeId))) return right([]);
      return right([awarded(command.userId, badgeXpEntry(command.badgeId, command.badgeName), at)]);
    }
    default: {
      const unreachable: never = command;
      return unreachable;
    }
  }
}

/** A user's XP ledger (stream `xp-<userId>`): run, goal, streak-week and badge XP, and the weekly streak. */
export const xpLedgerDecider = defineDecider<XpLedgerCommand, XpLedgerEvent, XpLedgerState>({
  initialState: initialXpLedgerState,
  evolve: evolveXpLedger,
  decide: decideXpLedger,
  eventSchema: XpLedgerEvent,
});
