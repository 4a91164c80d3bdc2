import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresEventStore } from '../../app-server/adapters/event-store/postgres/postgres-event-store.ts';
import type { Database } from '../../app-server/db/database.ts';
import type { EventStore, RecordedEvent } from '../../domain/shared/event-store.ts';
import { readCheckpoint } from '../../projections/engine/checkpoints.ts';
import { Engine } from '../../projections/engine/engine.ts';
import { RETRY_FOREVER } from '../../projections/engine/processor.ts';
import { newEvent } from '../contract/support/contract-events.ts';
import { migrateEngineTables } from './support/engine-store.ts';
import { openMemoryDatabase } from '../support/pglite-image.ts';

describe('the processing engine', () => {
  let database: Database;
  let store: EventStore;

  beforeAll(async () => {
    database = await openMemoryDatabase();
    await migrateEngineTables(database, '2026-12-26-01-engine-one-checkpoint-table');
  });
  afterAll(async () => {
    await store?.close();
    await database?.close();
  });

  it('carries the process managers’ checkpoints over into the one checkpoint table, positions kept', async () => {
    await sql`INSERT INTO es_checkpoints (name, commit_position, prepare_position) VALUES ('pm:kept', 41, 42)`.execute(
      database.db,
    );
    await migrateEngineTables(database);
    expect(await readCheckpoint(database.db, 'pm:kept')).toMatchObject({
      position: { commit: 41, prepare: 42 },
      globalPosition: 42,
    });
    const { rows } = await sql<{ t: string | null }>`SELECT to_regclass('es_checkpoints')::text AS t`.execute(
      database.db,
    );
    expect(rows[0]!.t).toBeNull();
    store = createPostgresEventStore(database);
  });

  it('hands a processor only the event types it handles, and moves its checkpoint to the head past the others', async () => {
    const stream = `types-${randomUUID()}`;
    await store.appendToStream(stream, [newEvent('Wanted', { n: 1 }), newEvent('Unwanted', { n: 2 })]);
    await store.appendToStream(stream, [newEvent('Unwanted', { n: 3 }), newEvent('Wanted', { n: 4 })]);
    await store.appendToStream(stream, [newEvent('Unwanted', { n: 5 })]);
    const seen: RecordedEvent[] = [];
    const engine = new Engine({
      db: database.db,
      store: store as EventStore<never>,
      batchSize: 1,
      processors: [
        {
          name: 'wants-some',
          version: 1,
          eventTypes: ['Wanted'],
          withoutFields: [],
          failure: RETRY_FOREVER,
          handle: async (events) => void seen.push(...events),
        },
      ],
    });
    await engine.drain();
    expect(seen.map((e) => e.data)).toEqual([{ n: 1 }, { n: 4 }]);
    expect((await readCheckpoint(database.db, 'wants-some'))?.position).toEqual(await store.headPosition({ committed: true }));
    expect((await readCheckpoint(database.db, 'wants-some'))?.eventsApplied).toBe(2);
  });
});
