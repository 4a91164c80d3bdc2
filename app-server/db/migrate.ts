import { Migrator } from 'kysely/migration';
import type { Db } from './database.ts';
import { migrations } from './migrations/index.ts';
import { lockSchemaInTransaction } from './schema-lock.ts';

/**
 * Brings the schema up to date; safe to call from several processes started at once. Everything, kysely's own
 * bookkeeping tables included, runs in one transaction under the schema lock (schema-lock.ts): kysely's lock covers
 * only the migrations, not the `CREATE TABLE IF NOT EXISTS` of its tables before them, and two of those at once fail
 * in PostgreSQL. A process that waited finds the work done and the migrations recorded.
 */
export async function migrateToLatest(db: Db): Promise<void> {
  const { error, results } = await db
    .transaction()
    .execute(async (tx) => {
      await lockSchemaInTransaction(tx);
      const migrator = new Migrator({
        db: tx,
        provider: { getMigrations: async () => migrations },
        // Modules add migrations independently; one added later with an earlier name must still run.
        allowUnorderedMigrations: true,
      });
      const outcome = await migrator.migrateToLatest();
      // A failed migration must not leave the ones before it half-recorded: throwing rolls the whole run back.
      if (outcome.error) throw new MigrationRunError(outcome);
      return outcome;
    })
    .catch((error: unknown) => {
      if (error instanceof MigrationRunError) return error.outcome;
      throw error;
    });
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown';
    throw new Error(`Migration ${failed} failed: ${error instanceof Error ? error.message : String(error)}`, {
      cause: error,
    });
  }
}

type MigrationOutcome = Awaited<ReturnType<Migrator['migrateToLatest']>>;

/** Carries a failed run out of the transaction, so the transaction rolls back and the caller still sees which. */
class MigrationRunError extends Error {
  readonly outcome: MigrationOutcome;
  constructor(outcome: MigrationOutcome) {
    super('migration failed');
    this.outcome = outcome;
  }
}
