import { randomUUID } from 'node:crypto';
import autocannon from 'autocannon';
import { weekStartingOn } from '../../../../domain/shared/week.ts';
import { seededRandom } from '../../../contract/support/seeded-random.ts';
import { generateTrack, runBody } from './gps-track.ts';
import type { BenchFixture } from '../seed/fixture.ts';
import { homeOf } from '../seed/seed-shape.ts';
import type { LoadFigures } from './load.ts';
import type { ServerProcess } from './server-process.ts';
import { percentile } from './stats.ts';

/** A signed-in runner who posts runs, with what their current goal showed last. */
export interface Writer {
  readonly userId: string;
  readonly token: string;
  readonly home: { latitude: number; longitude: number };
  goalType: 'distance' | 'count';
  progress: number;
  /** Where their week began (epoch ms): runs must start inside it to count. */
  readonly weekStartMs: number;
  /**
   * When their newest run before the bench ended (epoch ms): the bench's runs stay after it. A run overlapping one of
   * theirs would count once with it (the run policy), so their progress would not grow by its distance.
   */
  readonly floorMs: number;
  /** Start of the last run made (epoch ms); the next one ends 5 minutes before it, so a runner's runs never overlap. */
  earliestStartMs: number;
  /**
   * Bodies made before the measurement (JSON, as UTF-8 bytes), posted first: the load generator's own CPU stays out
   * of the window. Bytes, not strings: a 10 s row holds ≈4,400 of them (≈250 MB), which as strings filled the load
   * generator's heap, and its mark-compacts (12–23 ms) stopped every connection's clock; a Buffer's bytes live outside
   * the heap, and autocannon sends them as they are.
   */
  prepared?: Buffer[];
}

/** A user's writer from their GET /goals/current answer. */
export function writerFrom(
  userId: string,
  token: string,
  home: Writer['home'],
  goal: { type: 'distance' | 'count'; progress: number; period_start: string; time_zone: string },
  nowMs: number,
  newestRunEndMs = Number.NEGATIVE_INFINITY,
): Writer {
  return {
    userId,
    token,
    home,
    goalType: goal.type,
    progress: goal.progress,
    weekStartMs: weekStartingOn(goal.period_start, goal.time_zone).start.epochMilliseconds,
    floorMs: newestRunEndMs,
    earliestStartMs: nowMs,
  };
}

/**
 * How long a writer's goal week must still run when the bench starts. GET /goals/current also answers a goal whose week
 * has ended in its zone but is not settled yet (Sunday afternoon UTC, Monday has begun at UTC+13). A run posted now
 * falls in the next week and counts toward no goal, and once the worker settles the ended week the runner has no
 * current goal at all, so their runs were never seen as visible (2% of a 15 s row's runs, docs/PERFORMANCE.md).
 */
const WEEK_LEFT_MS = 30 * 60_000;

/** Runners for POST /runs: seeded users with a goal this week, and what it shows. */
export async function writersFor(
  product: ServerProcess,
  fixture: BenchFixture,
  tokens: Map<string, string>,
): Promise<Writer[]> {
  const out: Writer[] = [];
  for (const user of fixture.users.filter((u) => tokens.has(u.id))) {
    const res = await fetch(`${product.url}/goals/current`, {
      headers: { authorization: `Bearer ${tokens.get(user.id)}` },
    });
    const goal = ((await res.json()) as { data: Parameters<typeof writerFrom>[3] | null }).data;
    if (!goal) continue;
    const weekEndMs = weekStartingOn(goal.period_start, goal.time_zone).end.epochMilliseconds;
    if (weekEndMs - Date.now() < WEEK_LEFT_MS) continue;
    const newest = (
      (await (
        await fetch(`${product.url}/runs?limit=1`, { headers: { authorization: `Bearer ${tokens.get(user.id)}` } })
      ).json()) as { data: { started_at: string; duration_sec: number }[] }
    ).data[0];
    const newestEndMs = newest ? Date.parse(newest.started_at) + newest.duration_sec * 1000 : Number.NEGATIVE_INFINITY;
    out.push(writerFrom(user.id, tokens.get(user.id)!, homeOf(user.index), goal, Date.now(), newestEndMs));
  }
  return out;
}

/**
 * POST /runs bodies like the write row's (≈5 km at ≈5:30/km, a fix every 1–5 s), for the baseline that stores the
 * same body with one insert: the same bytes to receive, parse and store, so the write row's ratio is like for like.
 */
export function sampleRunBodies(count: number): string[] {
  const random = seededRandom(20261127);
  return Array.from({ length: count }, (_, i) => {
    const distanceKm = 4.8 + random.next() * 0.4;
    const track = generateTrack({
      start: { latitude: 48.8566, longitude: 2.3522 },
      startMs: Date.UTC(2026, 10, 2, 7) + i * 3_600_000,
      distanceKm,
      paceSecPerKm: 315 + random.next() * 30,
      fixEverySec: [1, 5],
      random: random.next,
    });
    return JSON.stringify(runBody(track, distanceKm));
  });
}

/** How many reads of GET /goals/current a writer makes at most before the run counts as not visible. */
const MAX_POLLS = 20;

/**
 * Runs made before the measurement, per second of it (warm-up included), spread over the writers: more than this
 * machine posts (about 100 runs/s), so the window posts prepared bodies only. Making a track and its JSON costs the
 * load generator about 1.4 ms per run on two cores it shares with the product; phones make their tracks themselves.
 * Beyond them a body is made when it is posted, as before.
 */
const PREPARED_RUNS_PER_SECOND = 400;

/** Room for another run of about 40 minutes between the runner's week start (or newest earlier run) and their last. */
const hasRoom = (writer: Writer) =>
  writer.earliestStartMs - 40 * 60_000 >= Math.max(writer.weekStartMs, writer.floorMs);

type Random = ReturnType<typeof seededRandom>;

/** The body of the writer's next run (≈5 km at ≈5:30/km, a fix every 1–5 s), ending 5 minutes before their last. */
function nextRunBody(writer: Writer, random: Random): string {
  const distanceKm = 4.8 + random.next() * 0.4;
  const paceSecPerKm = 315 + random.next() * 30;
  const startMs = writer.earliestStartMs - 5 * 60_000 - distanceKm * paceSecPerKm * 1000;
  writer.earliestStartMs = startMs;
  const track = generateTrack({
    start: writer.home,
    startMs,
    distanceKm,
    paceSecPerKm,
    fixEverySec: [1, 5],
    random: random.next,
  });
  return JSON.stringify(runBody(track, distanceKm));
}

/**
 * Makes the writers' runs for a measurement of `seconds` (and its warm-up second) ahead of it, outside the measured
 * window. Writers are taken in turn (first free, first taken), so each posts about the same number of runs.
 */
export function prepareRuns(writers: Writer[], seconds: number): void {
  const random = seededRandom(20261128);
  const perWriter = Math.ceil((PREPARED_RUNS_PER_SECOND * (seconds + 1)) / Math.max(1, writers.length));
  for (const writer of writers) {
    writer.prepared = [];
    while (writer.prepared.length < perWriter && hasRoom(writer)) writer.prepared.push(Buffer.from(nextRunBody(writer, random)));
  }
}

interface LoopContext {
  writer?: Writer;
  startedAt?: number;
  expected?: number;
  done?: boolean;
  polls?: number;
}

/**
 * POST /runs as runners do it, read-your-write: each connection takes a free runner, posts a realistic GPS run
 * (~5 km at ~5:30/km, a fix every 1–5 s, placed just before the runner's previous one so their runs never overlap;
 * those prepareRuns made first),
 * then reads GET /goals/current until the goal's progress includes the run. A runner is never used by two
 * connections at once, so "includes the run" is exact: progress grew by the run's distance (or by one run).
 * Reports runs made visible per second and the percentiles of the whole post-then-visible time.
 */
export async function measureWriteThenVisible(
  baseUrl: string,
  writers: Writer[],
  options: { connections: number; seconds: number; keys?: boolean },
): Promise<
  LoadFigures & {
    notVisible: number;
    catchingUp: number;
    outOfWeek: number;
    failureSamples: string[];
    /** Percentiles of the POST alone (saved, and applied by the read models it waits for). */
    postP50Ms: number;
    postP99Ms: number;
    /** Reads of GET /goals/current per run made visible (1: visible on the first read after the POST). */
    readsPerRun: number;
  }
> {
  const free = [...writers];
  const random = seededRandom(20261123);
  let measuring = false;
  const latencies: number[] = [];
  /** How long the POST itself took (its answer waits for the runs and goals read models). */
  const postLatencies: number[] = [];
  let failures = 0;
  let notVisible = 0;
  let polls = 0;
  let catchingUp = 0;
  let outOfWeek = 0;
  const failureSamples: string[] = [];
  const release = (writer: Writer) => free.push(writer);
  const hasRun = (writer: Writer) => (writer.prepared?.length ?? 0) > 0 || hasRoom(writer);

  const post: autocannon.Request = {
    method: 'POST',
    path: '/runs',
    setupRequest: (request, context: LoopContext) => {
      let writer = free.shift();
      // A runner with no room left for another run between their newest earlier run (or their week's start) and the
      // last run the bench posted for them is retired from the pool.
      while (writer && !hasRun(writer)) {
        outOfWeek++;
        writer = free.shift();
      }
      if (!writer) throw new Error('every bench runner ran out of room in their week: add writers or shorten the run');
      context.writer = writer;
      context.startedAt = performance.now();
      context.polls = 0;
      context.done = false;
      return {
        ...request,
        headers: {
          authorization: `Bearer ${writer.token}`,
          'content-type': 'application/json',
          ...(options.keys ? { 'idempotency-key': randomUUID() } : {}),
        },
        body: writer.prepared?.shift() ?? nextRunBody(writer, random),
      };
    },
    onResponse: (status, body, context: LoopContext) => {
      const writer = context.writer!;
      if (status !== 201) {
        if (measuring) failures++;
        if (failureSamples.length < 3) failureSamples.push(`POST /runs ${status}: ${body.slice(0, 200)}`);
        context.done = true;
        release(writer);
        return;
      }
      // What the goal counts of it (a free goal: the trusted distance, or one run); two decimals on both sides.
      const saved = JSON.parse(body) as { data: { verification?: { trusted_distance_km: number } } };
      if (!saved.data.verification) {
        // Saved, but answered before its read models caught up (`catching_up`, 2 s): not visible in time. The
        // runner's progress is unknown from here, so it is retired rather than measured wrong.
        if (measuring) catchingUp++;
        context.done = true;
        return;
      }
      if (measuring) postLatencies.push(performance.now() - context.startedAt!);
      const counted = saved.data.verification.trusted_distance_km;
      context.expected = writer.goalType === 'count' ? writer.progress + 1 : writer.progress + counted - 0.011;
    },
  };

  const poll: autocannon.Request = {
    method: 'GET',
    path: '/goals/current',
    // A falsy answer makes autocannon restart from the first request (its README): the next POST. The types omit it.
    setupRequest: (request, context: LoopContext) =>
      context.done
        ? (null as unknown as autocannon.Request)
        : { ...request, headers: { authorization: `Bearer ${context.writer!.token}` } },
    onResponse: (status, body, context: LoopContext) => {
      const writer = context.writer!;
      context.polls! += 1;
      if (measuring) polls++;
      const progress =
        status === 200 ? (JSON.parse(body) as { data: { progress: number } | null }).data?.progress : undefined;
      if (progress !== undefined && progress >= context.expected!) {
        if (measuring) latencies.push(performance.now() - context.startedAt!);
        writer.progress = progress;
        context.done = true;
        release(writer);
      } else if (status !== 200 || context.polls! >= MAX_POLLS) {
        if (measuring) status !== 200 ? failures++ : notVisible++;
        context.done = true;
        release(writer);
      }
    },
  };

  const run = (seconds: number) =>
    autocannon({
      url: baseUrl,
      connections: options.connections,
      duration: seconds,
      requests: [post, ...Array.from({ length: MAX_POLLS }, () => poll)],
    });
  await run(1);
  measuring = true;
  const started = performance.now();
  const result = await run(options.seconds);
  measuring = false;
  const seconds = (performance.now() - started) / 1000;
  return {
    perSecond: latencies.length / seconds,
    p50Ms: percentile(latencies, 50),
    p99Ms: percentile(latencies, 99),
    failures: failures + result.errors + result.timeouts,
    completed: latencies.length,
    notVisible,
    catchingUp,
    outOfWeek,
    failureSamples,
    postP50Ms: percentile(postLatencies, 50),
    postP99Ms: percentile(postLatencies, 99),
    readsPerRun: latencies.length > 0 ? polls / latencies.length : 0,
  };
}
