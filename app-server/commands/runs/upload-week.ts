import type { Transaction } from 'kysely';
import type { Temporal } from 'temporal-polyfill';
import { isSettledWeek, userGoalsDecider, type UserGoalsEvent } from '../../../domain/goal/user-goals.ts';
import { foldEvents } from '../../../domain/shared/decider.ts';
import type { RecordedEvent } from '../../../domain/shared/event-store.ts';
import { streams } from '../../../domain/shared/streams.ts';
import { isWithinWeek, weekStartingOn } from '../../../domain/shared/week.ts';
import { takesEvidence } from '../../../domain/stake/appeal-decide.ts';
import { stakeDecider } from '../../../domain/stake/decide.ts';
import { stakeIdForGoal } from '../../../domain/stake/from-goal.ts';
import { instantOf, type UserCommandContext } from '../command-context.ts';
import { loadAggregate } from '../execute-command.ts';

/**
 * What an upload after the fact may do in the week it starts in:
 * - open: the week is not settled; the usual limits apply (7 days back).
 * - settled: a goal of that week may already be settled: refused (`run_week_settled`, docs/run-policy.md).
 * - evidence: the week is settled, but its stake can still take evidence (issue 25): it stands, unsettled, and may be
 *   appealed, or it was lost at most LATE_EVIDENCE_DAYS ago and not refunded. The run is saved (XP, as any upload
 *   after the fact), whatever its age, and the stake weighs it (app-server/process/goal-lifecycle/stake-evidence.ts).
 */
export type UploadWeek = 'open' | 'settled' | 'evidence';

export async function uploadWeek(
  context: UserCommandContext,
  startedAt: Temporal.Instant,
  /** The user's goal index stream (streams.userGoals), read by the caller in `tx`. */
  goalIndex: readonly RecordedEvent[],
  tx: Transaction<object>,
): Promise<UploadWeek> {
  const index = foldEvents(
    userGoalsDecider,
    goalIndex.map((e) => ({ type: e.type, data: e.data }) as UserGoalsEvent),
  );
  const now = instantOf(context);
  if (!isSettledWeek(index, startedAt, now)) return 'open';
  for (const [goalId, week] of Object.entries(index.live)) {
    if (!isWithinWeek(startedAt, weekStartingOn(week.weekStart, week.timeZone))) continue;
    const stake = (await loadAggregate(context.store, stakeDecider, streams.stake(stakeIdForGoal(goalId)), tx)).state;
    if (stake.status !== 'none' && takesEvidence(stake, now)) return 'evidence';
  }
  return 'settled';
}
