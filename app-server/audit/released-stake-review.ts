import type { GoalCreated, GoalEvent } from '../../domain/goal/events.ts';
import { type GoalRun, goalProgress } from '../../domain/goal/progress.ts';
import { isTargetReached } from '../../domain/goal/state.ts';
import { countableRun } from '../../domain/run/count-once.ts';
import { countedDistanceKm } from '../../domain/run/counting.ts';
import type { RunRecorded } from '../../domain/run/events.ts';
import { verifyRun } from '../../domain/run/verification.ts';
import { VERIFICATION_POLICY_VERSION } from '../../domain/run/verification-policy.ts';
import type { StakeEvent } from '../../domain/stake/events.ts';
import type { RecordedEvent } from '../../domain/shared/event-store.ts';
import { weekStartingOn } from '../../domain/shared/week.ts';
import { type AuditFilter, matchesFilter } from './stake-audit.ts';
import { isGoalStream, isStakeStream } from '../../domain/shared/streams.ts';

/** A released stake an operator should look at, and why. */
export type ReviewItem = {
  stakeId: string;
  goalId: string;
  userId: string;
  amountCents: number;
  target: number;
  /** Progress the completion was granted on (the verdicts stored then). */
  progressWhenCompleted: number;
  /** The same runs judged by the current policy (deleted ones included: they were the completion's basis). */
  progressToday: number;
  policyVersion: number;
  /** Whether the goal ended the week completed (false: its completion was withdrawn and it was missed). */
  goalMet: boolean;
  deletedRuns: string[];
  /** Completing runs that count less toward a stake today, with the current verdict's reasons. */
  failingRuns: { runId: string; stakeKmThen: number; stakeKmToday: number; reasons: string[] }[];
  /** Runs whose track was erased with their owner's account: judged by their stored verdict only. */
  unverifiableRuns: string[];
  why: string[];
};

type Goal = GoalCreated['data'] & { completedAt: string | null; met: boolean };
type RunIndex = { userId: string; startedAtMs: number; recordedAt: string; deletedAt: string | null };

const DAY_MS = 86_400_000;

/**
 * The stake audit's review section (issue 11, "the audit knows about it"): every stake released for a completed
 * goal whose completing runs would not pass the run policy today, or whose completing run was deleted and the goal
 * then ended the week missed.
 *
 * Warnings, not violations. A violation is a broken money rule (a double capture, a wrong split): the system did
 * something it must never do. Here the system did what it must: it released the hold on the verdicts in force at
 * the time (a stored verdict is never re-judged, so a new policy cannot silently change a settled week), and it
 * never takes back a released hold (domain/goal/decide.ts "Completion and deleted runs"). What is left is a
 * judgement for a person — possible abuse, or an old policy's leniency — so the CLI lists these and exits 0, or 3
 * with --strict for a scheduled job that wants to be told.
 *
 * Two passes over the log keep memory small: the first indexes goals, stakes and runs without their tracks; the
 * second loads the full evidence of the completing runs only.
 */
export async function reviewReleasedStakes(
  readLog: () => AsyncIterable<RecordedEvent>,
  filter: AuditFilter = {},
): Promise<ReviewItem[]> {
  const stakes = new Map<
    string,
    { goalId: string; userId: string; amountCents: number; charityId: string | null; openedAt: string }
  >();
  const released = new Set<string>();
  const goals = new Map<string, Goal>();
  const runs = new Map<string, RunIndex>();
  for await (const recorded of readLog()) {
    const { type } = recorded;
    if (isStakeStream(recorded.streamId) && (type === 'StakeOpened' || type === 'StakeReleased')) {
      const event = recorded as unknown as StakeEvent;
      if (event.type === 'StakeOpened') stakes.set(event.data.stakeId, { ...event.data });
      if (event.type === 'StakeReleased' && event.data.outcome === 'succeeded') released.add(event.data.stakeId);
    } else if (isGoalStream(recorded.streamId) && type.startsWith('Goal')) {
      onGoalEvent(goals, recorded as unknown as GoalEvent);
    } else if (type === 'RunRecorded') {
      const d = (recorded as unknown as RunRecorded).data;
      runs.set(d.runId, {
        userId: d.userId,
        startedAtMs: Date.parse(d.startedAt),
        recordedAt: d.recordedAt,
        deletedAt: null,
      });
    } else if (type === 'RunDeleted') {
      const run = runs.get((recorded.data as { runId: string }).runId);
      if (run) run.deletedAt = (recorded.data as { deletedAt: string }).deletedAt;
    }
  }

  const candidates = new Map<string, { stakeId: string; goal: Goal; runIds: string[] }>();
  for (const stakeId of released) {
    const stake = stakes.get(stakeId);
    const goal = stake ? goals.get(stake.goalId) : undefined;
    if (!stake || !goal || goal.completedAt === null || !matchesFilter(stake, filter)) continue;
    const week = weekStartingOn(goal.weekStart, goal.timeZone);
    const completedAt = Date.parse(goal.completedAt);
    // The week's runs known at the completion, with a day around the week for the runs they overlap.
    const runIds = [...runs]
      .filter(
        ([, r]) =>
          r.userId === goal.userId &&
          r.startedAtMs >= week.start.epochMilliseconds - DAY_MS &&
          r.startedAtMs < week.end.epochMilliseconds + DAY_MS &&
          Date.parse(r.recordedAt) <= completedAt,
      )
      .map(([id]) => id);
    candidates.set(stakeId, { stakeId, goal, runIds });
  }
  const wanted = new Set([...candidates.values()].flatMap((c) => c.runIds));
  const evidence = new Map<string, RunRecorded['data']>();
  if (wanted.size > 0) {
    for await (const recorded of readLog()) {
      if (recorded.type !== 'RunRecorded') continue;
      const d = (recorded as unknown as RunRecorded).data;
      if (wanted.has(d.runId)) evidence.set(d.runId, d);
    }
  }

  const items: ReviewItem[] = [];
  for (const { stakeId, goal, runIds } of candidates.values()) {
    const stake = stakes.get(stakeId)!;
    const item = judge(
      stakeId,
      stake,
      goal,
      runIds.flatMap((id) => (evidence.has(id) ? [evidence.get(id)!] : [])),
      runs,
    );
    if (item.why.length > 0) items.push(item);
  }
  return items.sort((a, b) => (a.stakeId < b.stakeId ? -1 : 1));
}

function onGoalEvent(goals: Map<string, Goal>, event: GoalEvent): void {
  if (event.type === 'GoalCreated') {
    goals.set(event.data.goalId, { ...event.data, completedAt: null, met: false });
    return;
  }
  const goal = goals.get(event.data.goalId);
  if (!goal) return;
  if (event.type === 'GoalCompleted') {
    goal.completedAt ??= event.data.completedAt; // The first completion is the one that released the hold.
    goal.met = true;
  } else if (event.type === 'GoalCompletionWithdrawn' || event.type === 'GoalMissed') {
    goal.met = false;
  }
}

function judge(
  stakeId: string,
  stake: { goalId: string; userId: string; amountCents: number },
  goal: Goal,
  completing: readonly RunRecorded['data'][],
  index: Map<string, RunIndex>,
): ReviewItem {
  const unverifiable: string[] = [];
  const then: GoalRun[] = [];
  const today: GoalRun[] = [];
  const failingRuns: ReviewItem['failingRuns'] = [];
  for (const d of completing) {
    const run = { ...countableRun(d, d.recordedAt), userId: d.userId };
    then.push(run);
    // A track erased with its owner's account reads as null: nothing left to re-judge.
    if (d.positions === null) {
      unverifiable.push(d.runId);
      today.push(run);
      continue;
    }
    const verification = verifyRun({
      startedAtMs: run.startedAtMs,
      durationSec: d.durationSec,
      elapsedSec: d.elapsedSec ?? null,
      distanceKm: d.distanceKm,
      positions: d.positions,
      importFlags: d.importFlags,
      recordedAtMs: run.recordedAtMs,
    });
    today.push({ ...run, verification });
    const stakeKmThen = countedDistanceKm(d.verification, 'staked_goal');
    const stakeKmToday = countedDistanceKm(verification, 'staked_goal');
    if (stakeKmToday < stakeKmThen)
      failingRuns.push({ runId: d.runId, stakeKmThen, stakeKmToday, reasons: [...verification.reasons] });
  }
  const progressWhenCompleted = goalProgress(goal, then);
  const progressToday = goalProgress(goal, today);
  const deletedRuns = completing.filter((d) => index.get(d.runId)?.deletedAt).map((d) => d.runId);
  const why: string[] = [];
  if (!isTargetReached(progressToday, goal.targetValue)) {
    why.push(`its completing runs would not pass the run policy today: ${progressToday} of ${goal.targetValue}`);
  }
  if (deletedRuns.length > 0 && !goal.met) {
    why.push('a completing run was deleted and the goal ended the week missed; the released hold was kept released');
  }
  return {
    stakeId,
    goalId: stake.goalId,
    userId: stake.userId,
    amountCents: stake.amountCents,
    target: goal.targetValue,
    progressWhenCompleted,
    progressToday,
    policyVersion: VERIFICATION_POLICY_VERSION,
    goalMet: goal.met,
    deletedRuns,
    failingRuns,
    unverifiableRuns: unverifiable,
    why,
  };
}
