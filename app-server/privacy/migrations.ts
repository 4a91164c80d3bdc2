import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/** The per-user data keys of crypto-shredding; registered in app-server/db/migrations/index.ts. */
export const privacyMigrations: Record<string, Migration> = {
  '2026-11-22-04-personal-data-keys': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('personal_data_keys')
        .addColumn('subject_id', 'text', (c) => c.primaryKey())
        // The user's data key, itself sealed under the server's encryption key (AUTH_ENCRYPTION_KEY).
        .addColumn('sealed_key', 'text', (c) => c.notNull())
        .addColumn('created_at', 'timestamptz', (c) => c.notNull())
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('personal_data_keys').execute();
    },
  },
};
