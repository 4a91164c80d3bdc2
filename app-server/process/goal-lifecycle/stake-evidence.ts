import { sql } from 'kysely';
import { Temporal } from 'temporal-polyfill';
import { goalDecider } from '../../../domain/goal/decide.ts';
import type { GoalEvent } from '../../../domain/goal/events.ts';
import { foldEvents } from '../../../domain/shared/decider.ts';
import type { RecordedEvent } from '../../../domain/shared/event-store.ts';
import { streams } from '../../../domain/shared/streams.ts';
import { weekStartingOn } from '../../../domain/shared/week.ts';
import { appealUndecided, takesLateEvidence } from '../../../domain/stake/appeal-decide.ts';
import type { StakeCommand } from '../../../domain/stake/commands.ts';
import { stakeDecider } from '../../../domain/stake/decide.ts';
import { evidenceProgress } from '../../../domain/stake/evidence.ts';
import { stakeIdForGoal } from '../../../domain/stake/from-goal.ts';
import { runsAroundWeek } from '../../../projections/goals/runs-around-week.ts';
import { DomainRefusal } from '../../commands/domain-refusal.ts';
import { processMetadata } from '../../commands/event-metadata.ts';
import { executeCommand } from '../../commands/execute-command.ts';
import { inParallel, TICK_CONCURRENCY } from '../in-parallel.ts';
import { loadStake } from '../stakes/stake-stream.ts';
import type { ProgressContext } from './record-progress.ts';
import { GOAL_LIFECYCLE } from './process-name.ts';

/** What brought the week's evidence up: an appeal filed, or a run that arrived (its id). */
export type EvidenceTrigger = { readonly kind: 'appeal' } | { readonly kind: 'run'; readonly runId: string };

/** A week whose evidence to weigh: its goal, the event that brought it up, and how. */
export interface EvidenceToWeigh {
  readonly goalId: string;
  readonly cause: RecordedEvent;
  readonly trigger: EvidenceTrigger;
}

/**
 * weighStakeEvidence for each of `weeks`, their goal streams read in one statement first. On a week's last day
 * (in the goal's zone) every run arriving for it is weighed, so a batch of runs on a Sunday brought one goal read per
 * run, one after another; most of those goals are free and need nothing more.
 */
export async function weighStakesEvidence(weeks: readonly EvidenceToWeigh[], context: ProgressContext): Promise<void> {
  if (weeks.length === 0) return;
  const { store, tx } = context;
  const histories = await store.readStreams(
    weeks.map((w) => streams.goal(w.goalId)),
    tx ? { transaction: tx } : {},
  );
  await inParallel(weeks, TICK_CONCURRENCY, async ({ goalId, cause, trigger }) => {
    await weighStakeEvidence(goalId, histories.get(streams.goal(goalId)) ?? [], context, cause, trigger);
  });
}

/**
 * Weighs a staked week's evidence (domain/stake/evidence.ts) over the runs this process keeps, its goal's `history`
 * read by the caller, and tells the stake:
 * - an undecided appeal is accepted by rule when the evidence reaches the target; a newly filed one that does not is
 *   referred to an operator (a run arriving later may still accept it by rule);
 * - a stake lost at most LATE_EVIDENCE_DAYS ago is refunded when a run arriving now makes the evidence reach it.
 * Runs in the same transaction as the batch that brought the appeal or the run, so its decision is exactly once;
 * the stake decider refuses anything the stake has moved past (a refund twice, an appeal decided).
 */
async function weighStakeEvidence(
  goalId: string,
  history: readonly RecordedEvent[],
  context: ProgressContext,
  cause: RecordedEvent,
  trigger: EvidenceTrigger,
): Promise<void> {
  const { db, tx, store, now } = context;
  const options = tx ? { transaction: tx } : {};
  const goal = foldEvents(
    goalDecider,
    history.map((e) => ({ type: e.type, data: e.data }) as GoalEvent),
  );
  // A goal completed by its own runs releases its stake itself (an appeal filed meanwhile is moot: 'closed').
  if (goal.status === 'none' || goal.status === 'completed' || goal.goal.stakeAmountCents === 0) return;
  const stakeId = stakeIdForGoal(goalId);
  const stake = await loadStake(store, stakeId, tx ?? undefined);
  if (stake.status === 'none') return;
  const at = Temporal.Instant.fromEpochMilliseconds(now.getTime());
  const undecided = appealUndecided(stake);
  const refundable = trigger.kind === 'run' && takesLateEvidence(stake, at);
  if (!undecided && !refundable) return;

  const week = weekStartingOn(goal.goal.weekStart, goal.goal.timeZone);
  const runs = await runsAroundWeek(db, sql.table('goal_lifecycle_runs'), goal.goal.userId, {
    from: week.start.toString(),
    to: week.end.toString(),
  });
  const shown = evidenceProgress(goal.goal, runs);
  const completes = shown >= goal.goal.targetValue;
  let command: StakeCommand | null = null;
  if (undecided && completes) command = { type: 'AcceptAppeal', decidedBy: 'rules', note: '', now: at };
  else if (undecided && stake.appeal?.status === 'open' && trigger.kind === 'appeal') {
    command = { type: 'ReferAppeal', evidenceProgress: shown, target: goal.goal.targetValue, now: at };
  } else if (refundable && completes && trigger.kind === 'run') {
    command = { type: 'RefundForLateEvidence', evidenceRunId: trigger.runId, now: at };
  }
  if (command === null) return;
  try {
    await executeCommand(
      store,
      stakeDecider,
      streams.stake(stakeId),
      command,
      processMetadata(GOAL_LIFECYCLE, now, cause),
      options,
    );
  } catch (error) {
    // The stake moved on in between (settled, decided, refunded): nothing left to do.
    if (!(error instanceof DomainRefusal)) throw error;
  }
}
