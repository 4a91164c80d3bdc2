import { Migrator } from 'kysely/migration';
import { eventStoreMigrations } from '../../../app-server/adapters/event-store/postgres/migrations.ts';
import type { Db } from '../../../app-server/db/database.ts';
import { engineMigrations } from '../../../projections/engine/migrations.ts';

/**
 * Applies only the event store's migrations and the engine's (its checkpoints, for the tests that follow the log),
 * so this suite does not depend on other modules' schema.
 */
export async function migrateEventStore(db: Db): Promise<void> {
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => ({ ...eventStoreMigrations, ...engineMigrations }) },
  });
  const { error } = await migrator.migrateToLatest();
  if (error) throw error;
}
