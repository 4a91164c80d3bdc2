import type { Migration } from 'kysely/migration';

/**
 * Every schema migration, by name. Kysely runs them in name order; names start with a date and a module so
 * that modules written in parallel never collide. Each module exports its own record and is spread in here.
 */
export const migrations: Record<string, Migration> = {};
