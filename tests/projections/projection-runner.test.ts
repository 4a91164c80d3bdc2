import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresEventStore } from '../../app-server/adapters/event-store/postgres/postgres-event-store.ts';
import { type Database, openDatabase } from '../../app-server/db/database.ts';
import { migrateToLatest } from '../../app-server/db/migrate.ts';
import { comparePositions, type EventStore, type LogPosition, type NewEvent } from '../../domain/shared/event-store.ts';
import { createScratchDatabase } from '../support/scratch-database.ts';
import { logStatsProjector } from '../../projections/log-stats/log-stats-projector.ts';
import type { Projector } from '../../projections/engine/projector.ts';
import { ProjectionRunner } from '../../projections/engine/projection-runner.ts';
import { openMemoryDatabase } from '../support/pglite-image.ts';

type Target = 'pglite' | 'postgres';
const targets: Target[] = process.env.DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];

function event(type: string, occurredAt = '2026-11-16T08:00:00Z'): NewEvent {
  return {
    type,
    data: { n: 1 },
    metadata: {
      eventId: randomUUID(),
      occurredAt,
      actorId: 'user-1',
      correlationId: randomUUID(),
      causationId: null,
      schemaVersion: 1,
    },
  };
}

/** A projector that fails on a chosen event type, after writing part of its batch: to prove batch atomicity. */
function failingOnce(failOn: string): Projector<'applied_events'> & { failed: boolean } {
  const projector = {
    name: 'applied-events',
    version: 1,
    eventTypes: 'all',
    tables: ['applied_events'] as const,
    failed: false as boolean,
    async createTables(db, tables) {
      await sql`CREATE TABLE IF NOT EXISTS ${sql.table(tables.applied_events)} (event_id uuid PRIMARY KEY, type text NOT NULL)`.execute(
        db,
      );
    },
    async apply(events, { tx, tables }) {
      for (const e of events) {
        await sql`INSERT INTO ${sql.table(tables.applied_events)} VALUES (${e.metadata.eventId}, ${e.type})`.execute(
          tx,
        );
        if (e.type === failOn && !projector.failed) {
          projector.failed = true;
          throw new Error('projector crashed in the middle of a batch');
        }
      }
    },
  } satisfies Projector<'applied_events'> & { failed: boolean };
  return projector;
}

describe.each(targets)('projection runner on %s', (target) => {
  let database: Database;
  let store: EventStore<import('kysely').Transaction<object>>;
  let drop: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    if (target === 'postgres') {
      const scratch = await createScratchDatabase(process.env.DATABASE_URL!, 'ss_runner');
      drop = scratch.drop;
      database = await openDatabase({ databaseUrl: scratch.url });
    } else {
      database = await openMemoryDatabase();
    }
    await migrateToLatest(database.db);
    store = createPostgresEventStore(database);
  });

  afterAll(async () => {
    await store.close();
    await database.close();
    await drop?.();
  });

  const stats = async (table = 'log_stats') =>
    (
      await sql<{
        event_type: string;
        event_count: number;
      }>`SELECT event_type, event_count FROM ${sql.table(table)} ORDER BY event_type`.execute(database.db)
    ).rows;

  it('follows the log live, woken by appends, and reports position and lag', async () => {
    const runner = new ProjectionRunner({ db: database.db, store, projectors: [logStatsProjector], batchSize: 7 });
    await runner.start();
    try {
      for (let i = 0; i < 20; i++)
        await store.appendToStream(`run-${i % 4}`, [event(i % 3 === 0 ? 'RunLogged' : 'GoalCreated')]);
      const last = await store.appendToStream('run-x', [event('RunDeleted'), event('RunDeleted')]);
      await runner.waitFor(last.position);
      expect(await stats()).toEqual([
        { event_type: 'GoalCreated', event_count: 13 },
        { event_type: 'RunDeleted', event_count: 2 },
        { event_type: 'RunLogged', event_count: 7 },
      ]);
      const [status] = await runner.status();
      expect(status).toMatchObject({
        name: 'log-stats',
        lag: 0,
        eventsApplied: 22,
        globalPosition: last.globalPosition,
      });
    } finally {
      await runner.stop();
    }
  });

  it('applies a batch and its checkpoint in one transaction: a crash mid-batch applies nothing twice', async () => {
    const projector = failingOnce('Boom');
    const runner = new ProjectionRunner({ db: database.db, store, projectors: [projector], batchSize: 50, idleMs: 50 });
    const before = (await store.readAll({ maxCount: 100_000 })).length;
    await store.appendToStream('crash', [event('Fine'), event('Fine'), event('Boom'), event('Fine')]);
    await runner.start();
    try {
      const head = await store.headPosition();
      await runner.waitFor(head!, 10_000);
      expect(projector.failed).toBe(true);
      const rows = (await sql<{ n: number }>`SELECT count(*)::int AS n FROM applied_events`.execute(database.db)).rows;
      expect(rows[0]!.n).toBe(before + 4);
    } finally {
      await runner.stop();
    }
  });

  it('applies every event exactly once when two runners follow the same projections together while appends race', async () => {
    // Two API instances each run the projections: each steps all of them in one transaction, keeps where it left
    // each checkpoint between wake-ups, and so often reads after positions the other has already passed; the
    // checkpoint locks (taken in name order whatever the registration order) must sort that out without deadlock.
    /** Counts every event it applies into its own table (named after the projection). */
    const counted = (name: string): Projector => {
      const table = name.replaceAll('-', '_');
      return {
        name,
        version: 1,
        eventTypes: 'all',
        tables: [table],
        async createTables(db, tables) {
          await sql`CREATE TABLE IF NOT EXISTS ${sql.table(tables[table]!)} (event_id uuid NOT NULL)`.execute(db);
        },
        async apply(events, { tx, tables }) {
          for (const e of events)
            await sql`INSERT INTO ${sql.table(tables[table]!)} VALUES (${e.metadata.eventId})`.execute(tx);
        },
      };
    };
    const tableOf = (name: string) => name.replaceAll('-', '_');
    const named = ['counted-a', 'counted-b', 'counted-c'];
    const projectorsOf = (names: string[]) => names.map(counted);
    const runners = [named, [...named].reverse()].map(
      (names) =>
        new ProjectionRunner({ db: database.db, store, projectors: projectorsOf(names), batchSize: 3, idleMs: 50 }),
    );
    for (const runner of runners) await runner.start();
    try {
      const positions: LogPosition[] = [];
      const writers = [0, 1, 2, 3].map(async (w) => {
        for (let i = 0; i < 15; i++)
          positions.push((await store.appendToStream(`race-${w}`, [event('Raced')])).position);
      });
      await Promise.all(writers);
      // Wait for every write, not for the visible head: a runner's open batch hides the newest appends from a reader
      // of the log until it commits, so the head read now can be short of the last write.
      await runners[0]!.waitFor(
        positions.reduce((a, b) => (comparePositions(a, b) >= 0 ? a : b)),
        20_000,
      );
      const all = await store.readAll({ maxCount: 1_000_000 });
      for (const name of named) {
        const rows = (
          await sql<{ n: number; distinct_ids: number }>`
            SELECT count(*)::int AS n, count(DISTINCT event_id)::int AS distinct_ids FROM ${sql.table(tableOf(name))}`.execute(
            database.db,
          )
        ).rows[0]!;
        expect(rows).toEqual({ n: all.length, distinct_ids: all.length });
      }
    } finally {
      for (const runner of runners) await runner.stop();
    }
  });

  it('rebuilds beside the live copy while appends continue, then swaps in identical rows', async () => {
    const runner = new ProjectionRunner({ db: database.db, store, projectors: [logStatsProjector], batchSize: 5 });
    await runner.start();
    try {
      const positions: LogPosition[] = [];
      const writers = Array.from({ length: 4 }, async (_, w) => {
        for (let i = 0; i < 15; i++)
          positions.push((await store.appendToStream(`w-${w}`, [event(`Type${i % 5}`)])).position);
      });
      const rebuild = runner.rebuild('log-stats');
      await Promise.all([...writers, rebuild]);
      const result = await rebuild;
      expect(result.generation).toBe(1);
      // The last write, not the visible head (an open batch can hide the newest appends from a reader for a moment).
      await runner.waitFor(positions.reduce((a, b) => (comparePositions(a, b) >= 0 ? a : b)));
      const all = await store.readAll({ maxCount: 100_000 });
      const expected = new Map<string, number>();
      for (const e of all) expected.set(e.type, (expected.get(e.type) ?? 0) + 1);
      expect(await stats()).toEqual(
        [...expected]
          .sort(([a], [b]) => (a < b ? -1 : 1))
          .map(([event_type, event_count]) => ({ event_type, event_count })),
      );
      const leftovers = await sql<{
        n: number;
      }>`SELECT count(*)::int AS n FROM pg_tables WHERE tablename LIKE 'log_stats__g%'`.execute(database.db);
      expect(leftovers.rows[0]!.n).toBe(0);
    } finally {
      await runner.stop();
    }
  });

  it('rebuilds a projection whose version changed when it starts', async () => {
    const v2 = { ...logStatsProjector, version: 2 };
    const runner = new ProjectionRunner({ db: database.db, store, projectors: [v2] });
    await runner.prepare();
    const [status] = await runner.status();
    expect(status).toMatchObject({ version: 2, lag: 0 });
    expect(status!.eventsApplied).toBe((await store.readAll({ maxCount: 100_000 })).length);
  });

  it('refuses to rebuild an unknown projection, naming the known ones', async () => {
    const runner = new ProjectionRunner({ db: database.db, store, projectors: [logStatsProjector] });
    await expect(runner.rebuild('nope')).rejects.toThrow('Unknown projection "nope". Known: log-stats');
  });
});
