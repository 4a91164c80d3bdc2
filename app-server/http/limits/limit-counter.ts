import { type Kysely, sql } from 'kysely';
import type { Clock } from '../../clock.ts';

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
 * number of keys: keys are sorted, so two hits lock their rows in the same order and never deadlock.
 */
export function databaseLimitCounter(db: Kysely<object>, clock: Clock): LimitCounter {
  let hits = 0;
  return {
    async hit(keys, windowSeconds) {
      const at = clock.now();
      const floor = new Date(at.getTime() - windowSeconds * 1000);
      const sorted = [...new Set(keys.map((k) => k.key))].sort();
      const values = sql.join(sorted.map((key) => sql`(${key}, ${at}::timestamptz, 1)`));
      const { rows } = await sql<{ key: string; count: number; window_start: Date | string }>`
        INSERT INTO api_rate_limits AS r (key, window_start, count) VALUES ${values}
        ON CONFLICT (key) DO UPDATE SET
          count = CASE WHEN r.window_start <= ${floor}::timestamptz THEN 1 ELSE r.count + 1 END,
          window_start = CASE WHEN r.window_start <= ${floor}::timestamptz THEN excluded.window_start
                              ELSE r.window_start END
        RETURNING key, count, window_start`.execute(db);
      // Now and then, forget counters whose window ended long ago (addresses seen once).
      if (++hits % 5000 === 0) {
        const stale = new Date(at.getTime() - 24 * 3600 * 1000);
        await sql`DELETE FROM api_rate_limits WHERE window_start < ${stale}::timestamptz`.execute(db);
      }
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
