import { isRight } from 'fp-ts/lib/Either.js';
import { Temporal } from 'temporal-polyfill';
import { BADGE_DEFINITIONS } from '../../../../domain/gamification/badge-definitions.ts';
import { levelProgress } from '../../../../domain/gamification/levels.ts';
import { streakAsOf } from '../../../../domain/gamification/streaks.ts';
import { tierForLevel } from '../../../../domain/gamification/tiers.ts';
import { foldEvents } from '../../../../domain/shared/decider.ts';
import { weekStartOf } from '../../../../domain/shared/week.ts';
import type { XpLedgerCommand } from '../../../../domain/xp/commands.ts';
import { xpLedgerDecider } from '../../../../domain/xp/decide.ts';
import type { XpLedgerEvent } from '../../../../domain/xp/events.ts';
import { runXpCommand } from '../../../../domain/xp/run-xp-command.ts';
import type { DemoRun, DemoState } from './demo-data.ts';
import { demoGoalJson } from './demo-goals.ts';
import { DEMO_USER_ID } from './demo-route.ts';
import { demoRecordedAt, demoVerification } from './demo-verdict.ts';

/** The badges the demo shows as earned (GET /me/badges answers the first three definitions). */
export const DEMO_EARNED_BADGES = BADGE_DEFINITIONS.slice(0, 3);

/** The XP ledger command a demo run calls for: the server's own builder, at the run's sample surge multiplier. */
function runCommand(state: DemoState, run: DemoRun): XpLedgerCommand | null {
  const recordedAt = demoRecordedAt(run);
  const command = runXpCommand(
    {
      runId: run.id,
      userId: DEMO_USER_ID,
      source: 'gps',
      importId: null,
      startedAt: run.started_at,
      distanceKm: run.distance_km,
      durationSec: run.duration_sec,
      positions: [],
      importFlags: null,
      notes: null,
      verification: run.verification ?? demoVerification(run),
      recordedAt,
    },
    state.timezone,
    [],
    Temporal.Instant.from(recordedAt),
  );
  return command && command.type === 'AwardRunXp' ? { ...command, xpMultiplier: run.xp_multiplier ?? 1 } : command;
}

/**
 * The demo user's XP ledger, decided by the server's XP ledger (domain/xp) from the demo's facts: each run as it
 * was saved, each goal week once it is settled (completed, or over without reaching 100%), and the demo's badges.
 * So the demo pays exactly what the server would: 51 XP for 5.05 km, nothing twice for overlapping runs, streak XP.
 */
export function demoLedger(state: DemoState, nowMs: number): readonly XpLedgerEvent[] {
  const now = Temporal.Instant.fromEpochMilliseconds(nowMs);
  const commands: XpLedgerCommand[] = [];
  const runs = [...state.runs].sort((a, b) => demoRecordedAt(a).localeCompare(demoRecordedAt(b)));
  for (const run of runs) {
    const command = runCommand(state, run);
    if (command) commands.push(command);
  }
  const settled = state.goals
    .map((g) => demoGoalJson(state, g, nowMs))
    .filter((g) => g.status === 'completed' || g.status === 'missed')
    .sort((a, b) => a.period_start.localeCompare(b.period_start));
  for (const goal of settled) {
    const result = goal.status === 'completed' ? 'completed' : 'missed';
    commands.push({
      type: 'SettleGoalWeek',
      userId: DEMO_USER_ID,
      goalId: goal.id,
      weekStart: goal.period_start,
      result,
      now,
    });
  }
  for (const [i, badge] of DEMO_EARNED_BADGES.entries()) {
    commands.push({
      type: 'AwardBadgeXp',
      userId: DEMO_USER_ID,
      badgeId: `demo-badge-${i}`,
      badgeName: badge.name,
      now,
    });
  }
  const events: XpLedgerEvent[] = [];
  for (const command of commands) {
    const decision = xpLedgerDecider.decide(command, foldEvents(xpLedgerDecider, events));
    if (isRight(decision)) events.push(...decision.right);
  }
  return events;
}

/** The XP history row of each paid demo run (GET /me/xp-history), by run id; a run that earned nothing has none. */
export function demoRunXpRows(state: DemoState, nowMs: number) {
  const rows = new Map<
    string,
    { source_type: 'run'; source_id: string; xp_amount: number; description: string; surge_bonus: number }
  >();
  for (const event of demoLedger(state, nowMs)) {
    if (event.type !== 'RunXpAwarded') continue;
    const { runId, xpAmount, description, surgeBonus } = event.data;
    rows.set(runId, {
      source_type: 'run',
      source_id: runId,
      xp_amount: xpAmount,
      description,
      surge_bonus: surgeBonus,
    });
  }
  return rows;
}

/** The demo user's XP, level and tier, from the ledger. */
export function demoXp(state: DemoState, nowMs: number) {
  const total = foldEvents(xpLedgerDecider, demoLedger(state, nowMs)).totalXp;
  const p = levelProgress(total);
  return {
    total_xp: total,
    level: p.level,
    level_label: p.label,
    tier: tierForLevel(p.level).name,
    xp_into_level: p.xpIntoLevel,
    xp_for_level: p.xpForLevel,
    xp_to_next_level: p.xpToNextLevel,
  };
}

/** The demo user's streak in weeks, from the ledger's settled weeks, as seen this week (GET /me/streak). */
export function demoStreak(state: DemoState, nowMs: number) {
  const ledger = foldEvents(xpLedgerDecider, demoLedger(state, nowMs));
  const thisWeek = weekStartOf(Temporal.Instant.fromEpochMilliseconds(nowMs), state.timezone);
  const streak = streakAsOf(ledger.streak, thisWeek);
  return {
    current_streak: streak.current,
    longest_streak: streak.longest,
    last_completed_week: streak.lastCompletedWeek,
  };
}
