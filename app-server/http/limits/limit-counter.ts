import { type Kysely, sql } from 'kysely';
import type { Clock } from '../../clock.ts';
import { GroupedStatements } from '../../db/grouped-statements.ts';

/** One key to count under, with its maximum; every key of one hit shares the window length. */
export interface CountedKey {
  readonly key: string;
  readonly max: number;
}

/** The verdict of a hit: allowed, or refused with the seconds until the fullest refusing window ends. */
export type HitVerdict =
  | { readonly allowed: true; readonly windows: ReadonlyMap<string, Date> }
  | { readonly allowed: false; readonly retryAfter: number; readonly windows: ReadonlyMap<string, Date> };

/**
 * Fixed-window counters: increment first, atomically, then check (FACTS.md, "learned the hard way"). A hit adds one
 * to every key's counter in ONE statement and compares the counts it returns with their maxima, so N parallel hits
 * are counted N times and exactly `max` of them see a count within the maximum. Refused hits count too: a client
 * hammering past its budget stays refused until its window ends (Retry-After), it cannot edge back in.
 */
export interface LimitCounter {
  hit(keys: readonly CountedKey[], windowSeconds: number): Promise<HitVerdict>;
  /** Gives back what an allowed hit took, in the windows it was taken in (an invite code that was right). */
  release(taken: ReadonlyMap<string, Date>): Promise<void>;
}

const retryAfter = (windowStart: Date, windowSeconds: number, at: Date) =>
  Math.max(1, Math.ceil((windowStart.getTime() + windowSeconds * 1000 - at.getTime()) / 1000));

function verdictOf(
  rows: readonly { key: string; count: number; window_start: Date | string }[],
  keys: readonly CountedKey[],
  windowSeconds: number,
  at: Date,
): HitVerdict {
  const max = new Map(keys.map((k) => [k.key, k.max]));
  let refusedUntil: Date | null = null;
  const windows = new Map<string, Date>();
  for (const row of rows) {
    const start = new Date(row.window_start);
    windows.set(row.key, start);
    if (Number(row.count) > (max.get(row.key) ?? Number.POSITIVE_INFINITY)) {
      if (!refusedUntil || start > refusedUntil) refusedUntil = start;
    }
  }
  if (!refusedUntil) return { allowed: true, windows };
  return { allowed: false, retryAfter: retryAfter(refusedUntil, windowSeconds, at), windows };
}

/**
 * The database counter (table `api_rate_limits`), shared by every API instance. One upsert per hit, whatever the
 * number of keys: keys are sorted, so two hits lock their rows in the same order and never deadlock. Hits made while
 * an upsert of their window length is on its way go together in the next one (GroupedStatements: a statement costs
 * more than the rows it carries): a key hit n times in one upsert is counted n times, and its hits get the n counts
 * that ends with, in the order they were made, exactly as n upserts one after the other would have given them. So a
 * burst is counted as one hit each and exactly `max` of it is allowed, grouped or not.
 */
export function databaseLimitCounter(db: Kysely<object>, clock: Clock): LimitCounter {
  let statements = 0;
  /** One upsert of every key the hits name, each counted as often as it is named; the rows per key. */
  const upsert = async (keys: ReadonlyMap<string, number>, windowSeconds: number, at: Date) => {
    const floor = new Date(at.getTime() - windowSeconds * 1000);
    const sorted = [...keys.keys()].sort();
    const values = sql.join(sorted.map((key) => sql`(${key}, ${at}::timestamptz, ${keys.get(key)!}::integer)`));
    const { rows } = await sql<{ key: string; count: number; window_start: Date | string }>`
      INSERT INTO api_rate_limits AS r (key, window_start, count) VALUES ${values}
      ON CONFLICT (key) DO UPDATE SET
        count = CASE WHEN r.window_start <= ${floor}::timestamptz THEN excluded.count ELSE r.count + excluded.count END,
        window_start = CASE WHEN r.window_start <= ${floor}::timestamptz THEN excluded.window_start
                            ELSE r.window_start END
      RETURNING key, count, window_start`.execute(db);
    // Now and then, forget counters whose window ended long ago (addresses seen once).
    if (++statements % 5000 === 0) {
      const stale = new Date(at.getTime() - 24 * 3600 * 1000);
      await sql`DELETE FROM api_rate_limits WHERE window_start < ${stale}::timestamptz`.execute(db);
    }
    return new Map(rows.map((row) => [row.key, row]));
  };
  /** The hits of one window length sent together: each hit's keys (deduplicated), answered with each hit's rows. */
  const hitsTogether = (windowSeconds: number) =>
    new GroupedStatements(async (hits: readonly (readonly string[])[]) => {
      const at = clock.now();
      const times = new Map<string, number>();
      for (const keys of hits) for (const key of keys) times.set(key, (times.get(key) ?? 0) + 1);
      const rows = await upsert(times, windowSeconds, at);
      // The i-th hit of a key named n times gets the count it would have had in the i-th of n upserts in a row.
      const seen = new Map<string, number>();
      return hits.map((keys) => ({
        at,
        rows: keys.map((key) => {
          const row = rows.get(key)!;
          const nth = (seen.get(key) ?? 0) + 1;
          seen.set(key, nth);
          return { ...row, count: Number(row.count) - times.get(key)! + nth };
        }),
      }));
    });
  // One per window length the route limits name (limits/route-limits.ts): a handful of constants.
  const byWindow = new Map<number, ReturnType<typeof hitsTogether>>();
  return {
    async hit(keys, windowSeconds) {
      let grouped = byWindow.get(windowSeconds);
      if (!grouped) {
        grouped = hitsTogether(windowSeconds);
        byWindow.set(windowSeconds, grouped);
      }
      const { at, rows } = await grouped.ask([...new Set(keys.map((k) => k.key))]);
      return verdictOf(rows, keys, windowSeconds, at);
    },
    async release(taken) {
      for (const [key, windowStart] of [...taken].sort(([a], [b]) => (a < b ? -1 : 1))) {
        await sql`
          UPDATE api_rate_limits SET count = count - 1
          WHERE key = ${key} AND window_start = ${windowStart}::timestamptz AND count > 0`.execute(db);
      }
    },
  };
}

/**
 * A counter in this process's memory (the hot reads, route-limits.ts READ_COUNTING). Synchronous between awaits, so
 * atomic within the instance; each instance counts on its own.
 */
export function memoryLimitCounter(clock: Clock, capacity = 200_000): LimitCounter {
  const windows = new Map<string, { start: Date; count: number }>();
  return {
    async hit(keys, windowSeconds) {
      const at = clock.now();
      const floor = at.getTime() - windowSeconds * 1000;
      if (windows.size > capacity) {
        for (const [key, w] of windows) if (w.start.getTime() <= floor) windows.delete(key);
        if (windows.size > capacity) windows.clear();
      }
      const rows = keys.map(({ key }) => {
        let w = windows.get(key);
        if (!w || w.start.getTime() <= floor) {
          w = { start: at, count: 0 };
          windows.set(key, w);
        }
        w.count += 1;
        return { key, count: w.count, window_start: w.start };
      });
      return verdictOf(rows, keys, windowSeconds, at);
    },
    async release(taken) {
      for (const [key, windowStart] of taken) {
        const w = windows.get(key);
        if (w && w.start.getTime() === windowStart.getTime() && w.count > 0) w.count -= 1;
      }
    },
  };
}
