import { type Kysely, sql, type Transaction } from 'kysely';
import type { LogPosition } from '../../domain/shared/event-store.ts';

/** One processor's progress through the global log (one table for projectors, reactors and rebuild copies). */
export interface Checkpoint {
  readonly name: string;
  /** null before the first event. */
  readonly position: LogPosition | null;
  readonly globalPosition: number;
  readonly eventsApplied: number;
  readonly version: number;
  readonly generation: number;
  readonly updatedAt: Date;
}

/** The database, or a transaction on it. */
export type AnyDb = Kysely<object> | Transaction<object>;

// Counts as float8, which both drivers hand back as numbers (a bigint comes back as a string); exact below 2^53.
const columns = sql`name, CASE WHEN commit_position IS NOT NULL
    THEN json_build_object('commit', commit_position, 'prepare', prepare_position) END AS position,
  global_position::float8 AS "globalPosition", events_applied::float8 AS "eventsApplied", version, generation,
  updated_at AS "updatedAt"`;

export function newCheckpoint(name: string, version: number, now: Date, generation = 0): Checkpoint {
  return { name, position: null, globalPosition: 0, eventsApplied: 0, version, generation, updatedAt: now };
}

/**
 * Checkpoints by name (every one when `names` is absent); with `lock`, their rows locked in name order (two engines
 * locking overlapping sets in the same order cannot deadlock): the lock that serialises every writer of a checkpoint.
 */
export async function readCheckpoints(
  db: AnyDb,
  names?: readonly string[],
  options: { lock?: boolean } = {},
): Promise<Map<string, Checkpoint>> {
  const { rows } = await sql<Checkpoint>`SELECT ${columns} FROM processor_checkpoints
    WHERE ${names ?? null}::text[] IS NULL OR name = ANY(${names ?? null}::text[])
    ORDER BY name ${options.lock ? sql`FOR UPDATE` : sql``}`.execute(db);
  return new Map(rows.map((row) => [row.name, row]));
}

export async function readCheckpoint(db: AnyDb, name: string, options: { lock?: boolean } = {}) {
  return (await readCheckpoints(db, [name], options)).get(name) ?? null;
}

/** Creates or replaces checkpoint rows in one statement; `onlyNew` leaves existing ones as they are. */
export async function writeCheckpoints(
  db: AnyDb,
  checkpoints: readonly Checkpoint[],
  options: { onlyNew?: boolean } = {},
): Promise<void> {
  if (checkpoints.length === 0) return;
  const rows = checkpoints.map(
    (c) => sql`(${c.name}, ${c.position?.commit ?? null}::bigint, ${c.position?.prepare ?? null}::bigint,
      ${c.globalPosition}::bigint, ${c.eventsApplied}::bigint, ${c.version}::int, ${c.generation}::int,
      ${c.updatedAt}::timestamptz)`,
  );
  await sql`INSERT INTO processor_checkpoints AS c (name, commit_position, prepare_position, global_position,
      events_applied, version, generation, updated_at) VALUES ${sql.join(rows)}
    ON CONFLICT (name) DO ${
      options.onlyNew
        ? sql`NOTHING`
        : sql`UPDATE SET commit_position = excluded.commit_position, prepare_position = excluded.prepare_position,
      global_position = excluded.global_position, events_applied = excluded.events_applied,
      version = excluded.version, generation = excluded.generation, updated_at = excluded.updated_at`
    }`.execute(db);
}
