import { isLeft } from 'fp-ts/lib/Either.js';
import { randomUUID } from 'node:crypto';
import { Temporal } from 'temporal-polyfill';
import { reactionStream } from '../../../../app-server/commands/reactions/reaction-commands.ts';
import { decideCreateGoal } from '../../../../domain/goal/create-goal.ts';
import { goalDecider } from '../../../../domain/goal/decide.ts';
import type { GoalDetails, GoalEvent } from '../../../../domain/goal/events.ts';
import { goalProgress } from '../../../../domain/goal/progress.ts';
import type { GoalState } from '../../../../domain/goal/state.ts';
import { userGoalsDecider, type UserGoalsState } from '../../../../domain/goal/user-goals.ts';
import { reactionDecider } from '../../../../domain/reaction/decide.ts';
import { countableRun } from '../../../../domain/run/count-once.ts';
import { runDecider } from '../../../../domain/run/decide.ts';
import type { RunRecorded } from '../../../../domain/run/events.ts';
import { weekStartingOn } from '../../../../domain/shared/week.ts';
import { createGoalBodySchema } from '../../../../domain/validation/goal.ts';
import { runBodySchema } from '../../../../domain/validation/run.ts';
import type { seededRandom } from '../../../contract/support/seeded-random.ts';
import { generateTrack, runBody } from '../lib/gps-track.ts';
import type { BenchFixture } from './fixture.ts';
import type { HistoryWriter } from './history-writer.ts';
import { homeOf } from './seed-shape.ts';

// One seeded week of every user's life, decided by the domain's deciders (see seed-history.ts for the order).

const EMOJIS = ['thumbs_up', 'clap', 'fire'] as const;
const instant = (d: Date) => Temporal.Instant.fromEpochMilliseconds(d.getTime());

type Random = ReturnType<typeof seededRandom>;
type Users = BenchFixture['users'];
/** A run as recorded (RunRecorded's data). */
export type RecordedRun = RunRecorded['data'];

/**
 * The settlement clock's CloseWeek for last week's goals still active: they are missed, with the progress
 * `recordProgress` last counted for them. Returns the goals missed and the goals left open.
 */
export function closeWeek(
  writer: HistoryWriter,
  live: readonly GoalDetails[],
  now: Date,
  lastProgress: ReadonlyMap<string, number>,
) {
  const open: GoalDetails[] = [];
  const missed: GoalDetails[] = [];
  for (const goal of live) {
    const stream = `goal-${goal.goalId}`;
    const status = writer.stateOf<GoalState>(stream)?.status;
    if (status !== 'active') {
      writer.forget([stream]);
      continue;
    }
    try {
      const progress = lastProgress.get(goal.goalId) ?? 0;
      writer.decide(goalDecider, stream, { type: 'CloseWeek', progress, now: instant(now) }, { actorId: null, now });
      writer.forget([stream]);
      missed.push(goal);
    } catch {
      // Early on a Monday (UTC) a western zone's week has not ended yet: it stays open, as in the product.
      open.push(goal);
    }
  }
  return { open, missed };
}

/** This week's goal for every user: mostly distance goals of 10–30 km, some 2–4-run goals; all free. */
export function setGoals(writer: HistoryWriter, users: Users, now: Date, random: Random): Map<string, GoalDetails> {
  const goals = new Map<string, GoalDetails>();
  for (const user of users) {
    const body = createGoalBodySchema.parse(
      random.next() < 0.7
        ? { type: 'distance', target_value: 10 + 5 * random.int(5) }
        : { type: 'count', target_value: 2 + random.int(3) },
    );
    const goalId = randomUUID();
    const indexStream = `user-goals-${user.id}`;
    const index = writer.stateOf<UserGoalsState>(indexStream) ?? userGoalsDecider.initialState;
    const decision = decideCreateGoal(
      {
        type: 'CreateGoal',
        goalId,
        userId: user.id,
        goalType: body.type,
        targetValue: body.target_value,
        unit: body.unit,
        stakeAmountCents: 0,
        charityId: null,
        paymentMethodId: null,
        timeZone: user.timeZone,
        start: 'this_week',
        now: instant(now),
      },
      index,
    );
    // Early on a Monday (UTC) a western zone is still in last week, whose goal exists: one goal per week.
    if (isLeft(decision)) continue;
    const { indexEvents, goalEvents } = decision.right;
    const meta = { actorId: user.id, now };
    writer.queue(indexStream, indexEvents, meta, indexEvents.reduce(userGoalsDecider.evolve, index));
    writer.queue(`goal-${goalId}`, goalEvents, meta, goalEvents.reduce(goalDecider.evolve, goalDecider.initialState));
    const created = goalEvents.find((e): e is Extract<GoalEvent, { type: 'GoalCreated' }> => e.type === 'GoalCreated');
    if (created) goals.set(user.id, created.data);
  }
  return goals;
}

/**
 * 1–4 runs per user in the week, 3–10 km at 4:40–6:40/km, mornings to evenings local time, with GPS tracks (a fix
 * every 15–30 s: history is kept lighter than a live phone's 1–5 s, whose tracks the POST /runs bench sends).
 * Runs not finished by `until` are not recorded. Returns each user's recorded runs, oldest first.
 */
export function recordRuns(writer: HistoryWriter, users: Users, monday: string, until: Date, random: Random) {
  const runs = new Map<string, RecordedRun[]>();
  for (const user of users) {
    const home = homeOf(user.index);
    const weekStart = weekStartingOn(monday, user.timeZone).start.epochMilliseconds;
    const starts = Array.from(
      { length: 1 + random.int(4) },
      () => weekStart + (random.int(7) * 24 + 6 + random.int(14)) * 3_600_000,
    ).sort((a, b) => a - b);
    for (const startMs of starts) {
      const distanceKm = 3 + random.next() * 7;
      const track = generateTrack({
        start: {
          latitude: home.latitude + (random.next() - 0.5) * 0.1,
          longitude: home.longitude + (random.next() - 0.5) * 0.1,
        },
        startMs: startMs + random.int(3600) * 1000,
        distanceKm,
        paceSecPerKm: 280 + random.int(120),
        fixEverySec: [15, 30],
        random: random.next,
      });
      const savedAt = new Date(track.at(-1)!.timestamp + 120_000);
      if (savedAt > until) continue;
      const body = runBodySchema.parse(runBody(track, distanceKm));
      const runId = randomUUID();
      const [recorded] = writer.decide(
        runDecider,
        `run-${runId}`,
        {
          type: 'LogGpsRun',
          runId,
          userId: user.id,
          startedAt: Temporal.Instant.from(body.started_at),
          durationSec: body.duration_sec,
          positions: body.gps_data.positions,
          notes: body.notes,
          weekSettled: false,
          live: false,
          now: instant(savedAt),
        },
        { actorId: user.id, now: savedAt },
      );
      if (recorded?.type === 'RunRecorded') runs.set(user.id, [...(runs.get(user.id) ?? []), recorded.data]);
    }
  }
  return runs;
}

/**
 * The goal lifecycle's RecordProgress after each run; the decider adds GoalCompleted the first time it reaches
 * 100%. Keeps each goal's last figure in `lastProgress` (its week closes with it). Returns the goals completed, and
 * when.
 */
export function recordProgress(
  writer: HistoryWriter,
  goals: Map<string, GoalDetails>,
  runs: Map<string, RecordedRun[]>,
  lastProgress: Map<string, number>,
) {
  const completed: { goal: GoalDetails; at: Date }[] = [];
  for (const [userId, goal] of goals) {
    const userRuns = runs.get(userId) ?? [];
    for (let k = 1; k <= userRuns.length; k++) {
      const now = new Date(userRuns[k - 1]!.recordedAt);
      const progress = goalProgress(
        goal,
        userRuns.slice(0, k).map((run) => ({ ...countableRun(run, run.recordedAt), userId: run.userId })),
      );
      lastProgress.set(goal.goalId, progress);
      const events = writer.decide(
        goalDecider,
        `goal-${goal.goalId}`,
        { type: 'RecordProgress', progress, now: instant(now) },
        { actorId: null, now },
      );
      if (events.some((e) => e.type === 'GoalCompleted')) completed.push({ goal, at: now });
    }
  }
  return completed;
}

/** Each group member reacts to one run of a mate from this week, when a mate ran (one reaction of a kind per card). */
export function react(
  writer: HistoryWriter,
  groups: BenchFixture['groups'],
  runs: Map<string, RecordedRun[]>,
  now: Date,
  random: Random,
) {
  const done = new Set<string>();
  for (const group of groups) {
    for (const userId of group.members) {
      const mates = group.members.filter((m) => m !== userId && (runs.get(m)?.length ?? 0) > 0);
      if (mates.length === 0) continue;
      const mateRuns = runs.get(mates[random.int(mates.length)]!)!;
      const card = `run-${mateRuns[random.int(mateRuns.length)]!.runId}`;
      const emoji = EMOJIS[random.int(EMOJIS.length)]!;
      if (done.has(`${card}/${userId}/${emoji}`)) continue;
      done.add(`${card}/${userId}/${emoji}`);
      writer.decide(
        reactionDecider,
        reactionStream(card, userId, emoji),
        { type: 'AddReaction', feedEventId: card, userId, emoji, now: instant(now) },
        { actorId: userId, now },
      );
    }
  }
}
