import { Migrator } from 'kysely/migration';
import { eventStoreMigrations } from '../../../app-server/adapters/event-store/postgres/migrations.ts';
import { createPostgresEventStore } from '../../../app-server/adapters/event-store/postgres/postgres-event-store.ts';
import { type Database, openDatabase } from '../../../app-server/db/database.ts';
import type { EventStore } from '../../../domain/shared/event-store.ts';
import { engineMigrations } from '../../../projections/engine/migrations.ts';

/** An in-memory PGlite with the event store's and the engine's tables, for tests of the engine on its own. */
export async function openMemoryEngineStore(): Promise<{
  database: Database;
  store: EventStore;
  close(): Promise<void>;
}> {
  const database = await openDatabase({ dataDir: 'memory' });
  const migrations = { ...eventStoreMigrations, ...engineMigrations };
  const migrator = new Migrator({ db: database.db, provider: { getMigrations: async () => migrations } });
  const { error } = await migrator.migrateToLatest();
  if (error) throw error;
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
