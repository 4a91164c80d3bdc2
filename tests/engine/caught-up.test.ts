import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresEventStore } from '../../app-server/adapters/event-store/postgres/postgres-event-store.ts';
import { type Database, openDatabase } from '../../app-server/db/database.ts';
import type { EventStore, RecordedEvent } from '../../domain/shared/event-store.ts';
import { Engine } from '../../projections/engine/engine.ts';
import { RETRY_FOREVER } from '../../projections/engine/processor.ts';
import { newEvent } from '../contract/support/contract-events.ts';
import { createScratchDatabase } from '../support/scratch-database.ts';
import { migrateEngineTables } from './support/engine-store.ts';

/**
 * `Engine.caughtUp()` is what a caller awaits to know its acknowledged appends have been applied (the process
 * managers' host, tests, the CLI). An append committed while an older transaction is still open sits behind the
 * log's horizon: readAll cannot return it yet. Waiting only for the visible head let caughtUp resolve with that
 * committed append unseen (the contract suite's concurrent-writers test saw it under load). PostgreSQL only: PGlite
 * is one session, so no transaction is ever open beside another.
 */
const postgres = process.env.DATABASE_URL ? ['postgres' as const] : [];

describe.each(postgres)('caughtUp waits for every committed append, hidden ones too (%s)', () => {
  let scratch: Awaited<ReturnType<typeof createScratchDatabase>>;
  let database: Database;
  let store: EventStore;

  beforeAll(async () => {
    scratch = await createScratchDatabase(process.env.DATABASE_URL!, 'ss_caught_up');
    database = await openDatabase({ databaseUrl: scratch.url, poolSize: 4 });
    await migrateEngineTables(database);
    store = createPostgresEventStore(database);
  }, 60_000);
  afterAll(async () => {
    await store?.close();
    await database?.close();
    await scratch?.drop();
  });

  it('does not resolve while an older open transaction hides a committed append, and resolves once it ends', async () => {
    const seen: RecordedEvent[] = [];
    const engine = new Engine({
      db: database.db,
      store: store as EventStore<never>,
      processors: [
        {
          name: 'sees-all',
          version: 1,
          eventTypes: ['Older', 'Newer'],
          withoutFields: [],
          failure: RETRY_FOREVER,
          handle: async (events) => void seen.push(...events),
        },
      ],
    });
    let endOlder = () => {};
    const olderMayEnd = new Promise<void>((resolve) => {
      endOlder = resolve;
    });
    engine.start();
    try {
      await engine.caughtUp();
      let olderAppended!: () => void;
      const olderIsOpen = new Promise<void>((resolve) => {
        olderAppended = resolve;
      });
      // The older transaction appends first (so its transaction id is lower) and stays open.
      const older = database.db.transaction().execute(async (tx) => {
        await store.appendToStream(`older-${randomUUID()}`, [newEvent('Older', { n: 1 })], { transaction: tx });
        olderAppended();
        await olderMayEnd;
      });
      await olderIsOpen;
      // The newer append commits and is acknowledged, but stays behind the horizon until the older one ends.
      await store.appendToStream(`newer-${randomUUID()}`, [newEvent('Newer', { n: 2 })]);

      let resolved = false;
      const caughtUp = engine.caughtUp().then(() => {
        resolved = true;
      });
      await new Promise((r) => setTimeout(r, 500));
      expect(resolved).toBe(false);
      expect(seen.map((e) => e.type)).not.toContain('Newer');

      endOlder();
      await older;
      await caughtUp;
      expect(seen.map((e) => e.type).sort()).toEqual(['Newer', 'Older']);
    } finally {
      endOlder();
      await engine.stop();
    }
  }, 30_000);
});
