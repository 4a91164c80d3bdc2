import { type Kysely, sql } from 'kysely';
import type { Migration } from 'kysely/migration';
import { SEED_CHARITIES } from './seed-charities.ts';

/** The charities a runner can give a missed stake to (§3: id, name, description, logo_url, is_active). */
async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE charities (
      id text PRIMARY KEY,
      name text NOT NULL,
      description text NOT NULL,
      logo_url text,
      website_url text,
      is_active boolean NOT NULL DEFAULT true
    )`.execute(db);
  await sql`CREATE INDEX charities_active_name ON charities (is_active, name)`.execute(db);
  for (const c of SEED_CHARITIES) {
    await sql`
      INSERT INTO charities (id, name, description, logo_url, website_url, is_active)
      VALUES (${c.id}, ${c.name}, ${c.description}, ${c.logoUrl}, ${c.websiteUrl}, true)
      ON CONFLICT (id) DO NOTHING`.execute(db);
  }
}

/** Migrations of the charities table. */
export const charityMigrations: Record<string, Migration> = {
  '2026-11-26-01-charities': { up },
};
