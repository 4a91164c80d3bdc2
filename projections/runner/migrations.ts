import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/** Schema owned by the projection runner; registered in app-server/db/migrations/index.ts. */
export const projectionRunnerMigrations: Record<string, Migration> = {
  '2026-11-22-02-projection-checkpoints': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('projection_checkpoints')
        .addColumn('name', 'text', (c) => c.primaryKey())
        .addColumn('commit_position', 'bigint')
        .addColumn('prepare_position', 'bigint')
        .addColumn('global_position', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('events_applied', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('version', 'integer', (c) => c.notNull())
        .addColumn('generation', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('projection_checkpoints').execute();
    },
  },
};
