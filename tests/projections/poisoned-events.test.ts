import { randomUUID } from 'node:crypto';
import { type Transaction, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresEventStore } from '../../app-server/adapters/event-store/postgres/postgres-event-store.ts';
import { type Database, openDatabase } from '../../app-server/db/database.ts';
import { migrateToLatest } from '../../app-server/db/migrate.ts';
import type { EventStore, LogPosition, NewEvent } from '../../domain/shared/event-store.ts';
import type { FaultPolicy } from '../../projections/engine/fault-tracker.ts';
import { catchUpInTransaction } from '../../projections/engine/rebuild.ts';
import { ProjectionRunner } from '../../projections/engine/projection-runner.ts';
import type { Projector } from '../../projections/engine/projector.ts';
import { createScratchDatabase } from '../support/scratch-database.ts';
import { openMemoryDatabase } from '../support/pglite-image.ts';

type Target = 'pglite' | 'postgres';
const targets: Target[] = process.env.DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];

/** Small delays so the bounded retries take milliseconds, not seconds. */
const fastFaults: FaultPolicy = { maxAttempts: 3, firstDelayMs: 5, maxDelayMs: 40 };

/** An integer column holds at most 2,147,483,647: this value is refused by PostgreSQL itself (22003). */
const TOO_BIG = 2_147_483_648;

function numberEvent(n: number, type = 'NumberNoted'): NewEvent {
  return {
    type,
    data: { n },
    metadata: {
      eventId: randomUUID(),
      occurredAt: '2026-11-16T08:00:00Z',
      actorId: 'user-1',
      correlationId: randomUUID(),
      causationId: null,
      schemaVersion: 1,
    },
  };
}

/**
 * A read model of noted numbers in a column of `columnType`: with 'integer' it refuses TOO_BIG the way the runs
 * table refused a duration of 2^31 s. `failTransiently` makes it throw a connection-loss error that many times first.
 */
function numbersProjector(
  name: string,
  options: { columnType?: 'integer' | 'bigint'; failTransiently?: { times: number } } = {},
): Projector & { transientFailures: number } {
  // The logical table name is the physical one of the live copy: one table per projector.
  const table = name.replaceAll('-', '_');
  const projector = {
    name,
    version: 1,
    eventTypes: 'all',
    tables: [table],
    transientFailures: 0,
    async createTables(db, tables) {
      await sql`CREATE TABLE IF NOT EXISTS ${sql.table(tables[table]!)} (
        event_id text PRIMARY KEY, n ${sql.raw(options.columnType ?? 'integer')} NOT NULL)`.execute(db);
    },
    async apply(events, { tx, tables }) {
      for (const event of events) {
        if (event.type !== 'NumberNoted') continue;
        if (options.failTransiently && projector.transientFailures < options.failTransiently.times) {
          projector.transientFailures++;
          throw Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' });
        }
        const { n } = event.data as { n: number };
        await sql`INSERT INTO ${sql.table(tables[table]!)} VALUES (${event.metadata.eventId}, ${n})`.execute(tx);
      }
    },
  } satisfies Projector & { transientFailures: number };
  return projector;
}

describe.each(targets)('poisoned events on %s', (target) => {
  let database: Database;
  let store: EventStore<Transaction<object>>;
  let drop: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    if (target === 'postgres') {
      const scratch = await createScratchDatabase(process.env.DATABASE_URL!, 'ss_poison');
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

  const numbersIn = async (table: string) =>
    (await sql<{ n: number }>`SELECT n FROM ${sql.table(table)} ORDER BY n`.execute(database.db)).rows.map((r) =>
      Number(r.n),
    );

  const append = async (...values: number[]): Promise<LogPosition> => {
    let last: LogPosition | null = null;
    for (const n of values) last = (await store.appendToStream(`numbers-${randomUUID()}`, [numberEvent(n)])).position;
    return last!;
  };

  it('records an event its projector keeps refusing as poisoned and goes on: later events and other projections apply', async () => {
    const strict = numbersProjector('strict-numbers');
    const roomy = numbersProjector('roomy-numbers', { columnType: 'bigint' });
    const runner = new ProjectionRunner({
      db: database.db,
      store,
      projectors: [strict, roomy],
      faultPolicy: fastFaults,
      batchSize: 10,
    });
    await runner.start();
    try {
      const poisonedAt = await append(1, TOO_BIG, 3);
      expect(await runner.reached(poisonedAt, { timeoutMs: 10_000 })).toEqual([]);
      // Written after the poisoned event was passed: the same projector keeps applying.
      const later = await append(4);
      expect(await runner.reached(later, { timeoutMs: 10_000 })).toEqual([]);

      expect(await numbersIn('strict_numbers')).toEqual([1, 3, 4]);
      expect(await numbersIn('roomy_numbers')).toEqual([1, 3, 4, TOO_BIG]);

      const [poisoned, ...others] = await runner.poisoned();
      expect(others).toEqual([]);
      expect(poisoned).toMatchObject({
        projection: 'strict-numbers',
        eventType: 'NumberNoted',
        status: 'poisoned',
        attempts: fastFaults.maxAttempts,
        resolvedAt: null,
      });
      expect(poisoned!.error).toContain('22003');
      const stored = (await store.readStream(poisoned!.streamId))[0]!;
      expect(stored.data).toEqual({ n: TOO_BIG });
      expect(poisoned!.eventId).toBe(stored.metadata.eventId);
      expect(poisoned!.position).toEqual(stored.position);

      const status = await runner.status();
      expect(status.find((s) => s.name === 'strict-numbers')).toMatchObject({ poisoned: 1, lag: 0 });
      expect(status.find((s) => s.name === 'roomy-numbers')).toMatchObject({ poisoned: 0, lag: 0 });
    } finally {
      await runner.stop();
    }
  });

  it('replays a poisoned event after the fix (and reports it still failing before), then it no longer counts', async () => {
    const strict = numbersProjector('strict-numbers');
    const runner = new ProjectionRunner({ db: database.db, store, projectors: [strict], faultPolicy: fastFaults });
    const [poisoned] = await runner.poisoned({ status: ['poisoned'] });
    expect(poisoned).toBeDefined();

    const early = await runner.replayPoisoned(poisoned!.id);
    expect(early).toMatchObject({ kind: 'still_failing' });
    expect((await runner.poisoned())[0]).toMatchObject({ status: 'poisoned', attempts: fastFaults.maxAttempts + 1 });

    // The fix: the column now holds the value.
    await sql`ALTER TABLE strict_numbers ALTER COLUMN n TYPE bigint`.execute(database.db);
    expect(await runner.replayPoisoned(poisoned!.id)).toMatchObject({ kind: 'replayed' });
    expect(await numbersIn('strict_numbers')).toEqual([1, 3, 4, TOO_BIG]);
    expect((await runner.poisoned())[0]).toMatchObject({ status: 'replayed' });
    expect((await runner.poisoned())[0]!.resolvedAt).toBeInstanceOf(Date);
    expect((await runner.status())[0]).toMatchObject({ poisoned: 0 });
    expect(await runner.replayPoisoned(poisoned!.id)).toMatchObject({ kind: 'already_replayed' });
    expect(await runner.replayPoisoned(999_999)).toEqual({ kind: 'not_found' });
  });

  it('skips a poisoned event on request: it counts as handled and stays out of the read model', async () => {
    const picky = numbersProjector('picky-numbers');
    const runner = new ProjectionRunner({ db: database.db, store, projectors: [picky], faultPolicy: fastFaults });
    await runner.prepare();
    await runner.catchUp();
    const open = await runner.poisoned({ status: ['poisoned'] });
    // It met the first test's poisoned value too, on its own.
    expect(open.map((p) => p.projection)).toEqual(['picky-numbers']);
    expect((await runner.status())[0]).toMatchObject({ poisoned: 1, lag: 0 });

    expect(await runner.skipPoisoned(open[0]!.id)).toBe(true);
    expect((await runner.poisoned())[0]).toMatchObject({ status: 'skipped' });
    expect((await runner.status())[0]).toMatchObject({ poisoned: 0 });
    expect(await numbersIn('picky_numbers')).toEqual([1, 3, 4]);
    expect(await runner.skipPoisoned(999_999)).toBe(false);
  });

  it('retries a transient database fault for as long as it lasts and never poisons the event', async () => {
    const flaky = numbersProjector('flaky-numbers', {
      columnType: 'bigint',
      failTransiently: { times: fastFaults.maxAttempts * 3 },
    });
    const runner = new ProjectionRunner({ db: database.db, store, projectors: [flaky], faultPolicy: fastFaults });
    await runner.start();
    try {
      const head = await append(5);
      expect(await runner.reached(head, { timeoutMs: 15_000 })).toEqual([]);
      expect(flaky.transientFailures).toBe(fastFaults.maxAttempts * 3);
      expect(await numbersIn('flaky_numbers')).toEqual([1, 3, 4, 5, TOO_BIG]);
      expect(await runner.poisoned()).toEqual([]);
    } finally {
      await runner.stop();
    }
  });

  it('rebuilds past a poisoned event, and a rebuild by the fixed projector applies it and marks it replayed', async () => {
    const before = numbersProjector('rebuilt-numbers');
    const runner = new ProjectionRunner({ db: database.db, store, projectors: [before], faultPolicy: fastFaults });
    await runner.prepare();
    await runner.catchUp();
    await append(TOO_BIG + 1);
    const first = await runner.rebuild('rebuilt-numbers');
    expect(first.poisoned).toBe(2);
    expect(await numbersIn('rebuilt_numbers')).toEqual([1, 3, 4, 5]);
    const open = await runner.poisoned({ status: ['poisoned'] });
    expect(open).toHaveLength(2);
    // Met by the catch-up and by the rebuild: one row each, with the attempts of both.
    expect(open[0]!.attempts).toBe(fastFaults.maxAttempts * 2);

    const fixed = new ProjectionRunner({
      db: database.db,
      store,
      projectors: [numbersProjector('rebuilt-numbers', { columnType: 'bigint' })],
      faultPolicy: fastFaults,
    });
    const second = await fixed.rebuild('rebuilt-numbers');
    expect(second.poisoned).toBe(0);
    expect(await numbersIn('rebuilt_numbers')).toEqual([1, 3, 4, 5, TOO_BIG, TOO_BIG + 1]);
    expect((await fixed.poisoned()).map((p) => p.status)).toEqual(['replayed', 'replayed']);
    expect((await fixed.status())[0]).toMatchObject({ poisoned: 0, lag: 0 });
  });

  it("passes a refused event in a rebuild's final catch-up under a savepoint, keeping the rest of its transaction", async () => {
    const projector = numbersProjector('swap-numbers');
    await projector.createTables(database.db, { swap_numbers: 'swap_numbers' });
    const passed: unknown[] = [];
    const result = await database.db.transaction().execute(async (tx) => {
      const from = {
        name: 'swap-numbers',
        position: null,
        globalPosition: 0,
        eventsApplied: 0,
        version: 1,
        generation: 0,
        updatedAt: new Date(),
      };
      const reached = await catchUpInTransaction(tx, store, projector, { swap_numbers: 'swap_numbers' }, from, {
        batchSize: 100,
        now: () => new Date(),
        onPoisoned: async (event) => {
          passed.push((event.data as { n: number }).n);
        },
      });
      // The transaction is still usable after the rolled-back savepoints.
      await sql`INSERT INTO swap_numbers VALUES ('marker', -1)`.execute(tx);
      return reached;
    });
    expect(passed).toEqual([TOO_BIG, TOO_BIG + 1]);
    expect(await numbersIn('swap_numbers')).toEqual([-1, 1, 3, 4, 5]);
    expect(result.position).toEqual(await store.headPosition({ committed: true }));
    expect(result.eventsApplied).toBe((await store.readAll({ maxCount: 1000 })).length - 2);
  });
});
