import { Temporal } from 'temporal-polyfill';
import type { WeekResult } from '../../../../domain/gamification/streaks.ts';
import type { GoalDetails } from '../../../../domain/goal/events.ts';
import type { RunRecorded } from '../../../../domain/run/events.ts';
import { streams } from '../../../../domain/shared/streams.ts';
import { xpLedgerDecider } from '../../../../domain/xp/decide.ts';
import { runXpCommand } from '../../../../domain/xp/run-xp-command.ts';
import type { HistoryWriter } from './history-writer.ts';

/**
 * The XP the product's xp-awards process pays for the seeded history, decided by the XP ledger's own decider with
 * the commands that process builds (`runXpCommand`, shared with app-server/process/awards/xp-awards.ts): a run's XP at its
 * counted distance and local start (no surge is seeded, so the multiplier is 1), and each settled goal week.
 *
 * Why not let that process do it: it handles events one by one, reading three streams per run inside one
 * transaction per 200 events. Measured here, it catches up at ~25 runs/s on the shared machine, which would make
 * the million-event seed take hours. The seed therefore writes these events itself and starts the process's
 * checkpoint at the end of the seeded log (see seed-history.ts); the process then handles everything after it live
 * (badge XP of the badges the badge process awards during its catch-up). That slowness is a finding of its own.
 */
export function seedRunXp(writer: HistoryWriter, run: RunRecorded['data'], timeZone: string, now: Date) {
  const command = runXpCommand(run, timeZone, [], Temporal.Instant.fromEpochMilliseconds(now.getTime()));
  if (command === null) return [];
  return writer.decide(xpLedgerDecider, streams.xpLedger(run.userId), command, { actorId: 'system:xp-awards', now });
}

/** The XP of a goal week settled as completed or missed. */
export function seedGoalWeekXp(writer: HistoryWriter, goal: GoalDetails, result: WeekResult, now: Date) {
  return writer.decide(
    xpLedgerDecider,
    streams.xpLedger(goal.userId),
    {
      type: 'SettleGoalWeek',
      userId: goal.userId,
      goalId: goal.goalId,
      weekStart: goal.weekStart,
      result,
      now: Temporal.Instant.fromEpochMilliseconds(now.getTime()),
    },
    { actorId: 'system:xp-awards', now },
  );
}
