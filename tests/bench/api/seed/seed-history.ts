import { sql } from 'kysely';
import pino from 'pino';
import { Temporal } from 'temporal-polyfill';
import { ManualClock } from '../../../../app-server/clock.ts';
import type { Config } from '../../../../app-server/config.ts';
import { openDatabase } from '../../../../app-server/db/database.ts';
import { createRuntime, type Runtime } from '../../../../app-server/runtime.ts';
import type { GoalDetails } from '../../../../domain/goal/events.ts';
import { seededRandom } from '../../../contract/support/seeded-random.ts';
import { settle } from '../../../support/users.ts';
import { type BenchFixture, writeFixture } from './fixture.ts';
import { HistoryWriter } from './history-writer.ts';
import { createGroups, registerUsers } from './seed-people.ts';
import { closeWeek, react, recordProgress, recordRuns, setGoals } from './seed-week.ts';
import { seedGoalWeekXp, seedRunXp } from './seed-xp.ts';
import { type SeedShape, seededMondays } from './seed-shape.ts';

type Say = (line: string) => void;

/**
 * Writes `shape`'s history into the (empty) database at `databaseUrl`, then lets the product's own workers catch up.
 * `config` must be the one the bench's server runs with (the same AUTH_ENCRYPTION_KEY seals the users' data keys).
 *
 * Users go through the auth service's user store (login identity, profile, UserRegistered). Everything they do —
 * groups, a goal each week, GPS runs, goal progress and completion, week close, reactions — is decided by the
 * domain's deciders in memory (HistoryWriter) and appended in batches, week by week up to now, with the XP the
 * product pays for it (seed-xp.ts). The nine projections run from the start and build every read model as the
 * history is written; once it is all written, the process managers start from position 0 under the clock set to now
 * and react to the whole history as they would have live (badges and their XP; goal progress they find already
 * recorded). Returns the number of events in the log.
 */
export async function seedHistory(config: Config, databaseUrl: string, shape: SeedShape, say: Say): Promise<number> {
  const realNow = new Date();
  const mondays = seededMondays(shape, realNow);
  const clock = new ManualClock(`${mondays[0]}T06:00:00Z`);
  const database = await openDatabase({ databaseUrl, poolSize: 12 });
  const runtime = await createRuntime(
    { ...config, DATABASE_URL: databaseUrl },
    { clock, database, logger: pino({ level: 'silent' }) },
  );
  const writer = new HistoryWriter(runtime.store, runtime.database.db);
  const random = seededRandom(shape.seed);
  const started = performance.now();
  const progress = async (label: string) =>
    say(
      `  ${label}: ${(await eventCount(runtime)).toLocaleString('en-US')} events after ${Math.round((performance.now() - started) / 1000)} s`,
    );
  try {
    // The read models follow the history as it is written (the process managers start once it is all there).
    await runtime.projections.start();
    const users = await registerUsers(runtime, shape, clock);
    clock.set(`${mondays[0]}T07:00:00Z`);
    const groups = createGroups(writer, shape, users, clock.now());
    await writer.flush();
    await progress(`${shape.users} users, ${shape.groups} groups`);

    let live: GoalDetails[] = [];
    const lastProgress = new Map<string, number>();
    for (const [w, monday] of mondays.entries()) {
      const current = w === mondays.length - 1;
      // Monday noon UTC is Monday in every seeded zone: last week's goals close, this week's are set.
      const noon = new Date(`${monday}T12:00:00Z`);
      const at = current && realNow < noon ? realNow : noon;
      const closed = closeWeek(writer, live, at, lastProgress);
      await writer.flush();
      for (const goal of closed.missed) seedGoalWeekXp(writer, goal, 'missed', at);
      await writer.flush();
      live = closed.open;
      const goals = setGoals(writer, users, at, random);
      await writer.flush();
      const runs = recordRuns(
        writer,
        users,
        monday,
        current ? realNow : new Date(noon.getTime() + 7 * 86_400_000),
        random,
      );
      await writer.flush();
      for (const user of users) {
        for (const run of runs.get(user.id) ?? []) seedRunXp(writer, run, user.timeZone, new Date(run.recordedAt));
      }
      await writer.flush();
      for (const { goal, at: completedAt } of recordProgress(writer, goals, runs, lastProgress)) {
        seedGoalWeekXp(writer, goal, 'completed', completedAt);
      }
      await writer.flush();
      react(
        writer,
        groups,
        runs,
        current ? realNow : new Date(`${Temporal.PlainDate.from(monday).add({ days: 6 })}T20:00:00Z`),
        random,
      );
      await writer.flush();
      live = [...live.filter((g) => !goals.has(g.userId)), ...goals.values()];
      await vacuum(runtime);
      await progress(`week of ${monday}${current ? ' (current)' : ''}`);
    }
    await writeFixture(runtime.database.db, { users, groups } satisfies BenchFixture);

    // The product's workers take it from here, as if the history had happened live; the XP process starts after
    // the history, whose XP the seed wrote (seed-xp.ts says why).
    await startCheckpointAtHead(runtime, 'pm:xp-awards');
    clock.set(realNow);
    const caughtUp = performance.now();
    runtime.processes.start();
    await whileVacuuming(runtime, async () => {
      await settle(runtime, 3_600_000);
      await runtime.processes.tick();
      await settle(runtime, 3_600_000);
    });
    await progress(`workers caught up in ${Math.round((performance.now() - caughtUp) / 1000)} s`);
    return await eventCount(runtime);
  } finally {
    await runtime.close();
    await database.close();
  }
}

/** Sets a subscription's checkpoint to the head of the log, as if it had processed everything so far. */
async function startCheckpointAtHead(runtime: Runtime, name: string): Promise<void> {
  const head = await runtime.store.headPosition();
  if (!head) return;
  await sql`INSERT INTO processor_checkpoints
      (name, commit_position, prepare_position, global_position, events_applied, version, generation, updated_at)
    VALUES (${name}, ${head.commit}, ${head.prepare}, ${head.prepare}, 0, 1, 0, now())
    ON CONFLICT (name) DO UPDATE SET commit_position = excluded.commit_position, prepare_position = excluded.prepare_position`.execute(
    runtime.database.db,
  );
}

/**
 * Clears the dead rows a week of updates left (goal progress, feed cards, stream versions) and refreshes the
 * planner's statistics. A production server does this through autovacuum; the bench's server may run without it
 * (CI's does), and then a week of updates piles up more dead goal rows than live ones and every later week slows
 * down (411 s → 618 s per week at 10,000 users): that measured a server left without maintenance, not the product.
 */
async function vacuum(runtime: Runtime): Promise<void> {
  await sql`VACUUM (ANALYZE)`.execute(runtime.database.db);
}

/**
 * Runs `work` with a VACUUM (ANALYZE) every minute beside it, as autovacuum would. The process managers start from
 * an empty table of their own (goal_lifecycle_runs) and fill it while they catch up on the whole history; the
 * statements they prepared early keep the generic plan made when it was empty (a sequential scan) until an ANALYZE
 * invalidates it. Without one, each run scanned every run before it: at 10,000 users the catch-up had read 2 billion
 * rows in 70,000 scans and moved 1,600 events a minute; after an ANALYZE, about 150,000 a minute.
 */
async function whileVacuuming(runtime: Runtime, work: () => Promise<void>): Promise<void> {
  let vacuuming: Promise<void> = Promise.resolve();
  const timer = setInterval(() => {
    // A failed pass (the seed closing its pool) only leaves the next to do the work: it must not stop the seed.
    vacuuming = vacuuming.then(() => vacuum(runtime)).catch(() => undefined);
  }, 60_000);
  try {
    await work();
  } finally {
    clearInterval(timer);
    await vacuuming;
  }
}

async function eventCount(runtime: Runtime): Promise<number> {
  const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM es_events`.execute(runtime.database.db);
  return rows[0]!.n;
}
