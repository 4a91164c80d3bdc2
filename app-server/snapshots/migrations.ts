import { type Kysely, sql } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * stream_snapshots: a cache of folded stream states (snapshot-load.ts). One row per stream, the newest; `version`
 * names the shape of `state`, and a reader ignores any other version. Deleting rows only makes reads slower.
 */
export const snapshotMigrations: Record<string, Migration> = {
  '2026-11-27-01-snapshots-stream-snapshots': {
    async up(db: Kysely<unknown>) {
      await sql`
        CREATE TABLE stream_snapshots (
          stream_id text PRIMARY KEY,
          version integer NOT NULL,
          revision bigint NOT NULL,
          state jsonb NOT NULL,
          taken_at timestamptz NOT NULL DEFAULT now()
        )`.execute(db);
    },
    async down(db: Kysely<unknown>) {
      await sql`DROP TABLE IF EXISTS stream_snapshots`.execute(db);
    },
  },
};
