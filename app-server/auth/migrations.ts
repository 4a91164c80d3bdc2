import type { Migration } from 'kysely/migration';

/** Schema owned by this module; registered in app-server/db/migrations/index.ts. */
export const authMigrations: Record<string, Migration> = {};
