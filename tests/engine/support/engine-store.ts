import { Migrator } from 'kysely/migration';
import { eventStoreMigrations } from '../../../app-server/adapters/event-store/postgres/migrations.ts';
import { createPostgresEventStore } from '../../../app-server/adapters/event-store/postgres/postgres-event-store.ts';
import type { Database } from '../../../app-server/db/database.ts';
import type { EventStore } from '../../../domain/shared/event-store.ts';
import { engineMigrations } from '../../../projections/engine/migrations.ts';
import { openMemoryDatabase } from '../../support/pglite-image.ts';

/** Migrates the event store's and the engine's tables up to, but not including, `stopBefore` (all when absent). */
export async function migrateEngineTables(database: Database, stopBefore?: string): Promise<void> {
  const all = { ...eventStoreMigrations, ...engineMigrations };
  const chosen = Object.fromEntries(Object.entries(all).filter(([name]) => !stopBefore || name < stopBefore));
  const migrator = new Migrator({ db: database.db, provider: { getMigrations: async () => chosen } });
  const { error } = await migrator.migrateToLatest();
  if (error) throw error;
}

/** An in-memory PGlite with the event store's and the engine's tables, for tests of the engine on its own. */
export async function openMemoryEngineStore(): Promise<{
  database: Database;
  store: EventStore;
  close(): Promise<void>;
}> {
  const database = await openMemoryDatabase();
  await migrateEngineTables(database);
  const store = createPostgresEventStore(database);
  return {
    database,
    store,
    close: async () => {
      await store.close();
      await database.close();
    },
  };
}
