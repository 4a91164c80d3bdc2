import { type Kysely, sql } from 'kysely';
import type { Migration } from 'kysely/migration';

/** Schema owned by the processing engine; registered in app-server/db/migrations/index.ts. */
export const engineMigrations: Record<string, Migration> = {
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
  // Events a projector refused and the runner moved past (see poisoned-events.ts); one row per projector and event.
  '2026-12-05-01-projection-poisoned-events': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('projection_poisoned_events')
        .addColumn('id', 'bigint', (c) => c.primaryKey().generatedByDefaultAsIdentity())
        .addColumn('projection', 'text', (c) => c.notNull())
        .addColumn('event_id', 'text', (c) => c.notNull())
        .addColumn('event_type', 'text', (c) => c.notNull())
        .addColumn('stream_id', 'text', (c) => c.notNull())
        .addColumn('commit_position', 'bigint', (c) => c.notNull())
        .addColumn('prepare_position', 'bigint', (c) => c.notNull())
        .addColumn('global_position', 'bigint', (c) => c.notNull())
        .addColumn('error', 'text', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull())
        .addColumn('first_seen_at', 'timestamptz', (c) => c.notNull())
        .addColumn('last_seen_at', 'timestamptz', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull().check(sql`status IN ('poisoned', 'skipped', 'replayed')`))
        .addColumn('resolved_at', 'timestamptz')
        .addUniqueConstraint('projection_poisoned_events_projection_event', ['projection', 'event_id'])
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('projection_poisoned_events').execute();
    },
  }, // One checkpoint table for every processor: the process managers' checkpoints (es_checkpoints, under advisory
  // locks) move in beside the projections' with their positions, so a deployed database resumes where it was.
  '2026-12-26-01-engine-one-checkpoint-table': {
    async up(db: Kysely<unknown>) {
      await sql`ALTER TABLE projection_checkpoints RENAME TO processor_checkpoints`.execute(db);
      await sql`ALTER INDEX IF EXISTS projection_checkpoints_pkey RENAME TO processor_checkpoints_pkey`.execute(db);
      await sql`INSERT INTO processor_checkpoints
          (name, commit_position, prepare_position, global_position, events_applied, version, generation, updated_at)
        SELECT name, commit_position, prepare_position, prepare_position, 0, 1, 0, updated_at FROM es_checkpoints
        ON CONFLICT (name) DO NOTHING`.execute(db);
      await sql`DROP TABLE es_checkpoints`.execute(db);
    },
    async down(db: Kysely<unknown>) {
      await sql`CREATE TABLE es_checkpoints (name text PRIMARY KEY, commit_position bigint NOT NULL,
        prepare_position bigint NOT NULL, updated_at timestamptz NOT NULL DEFAULT now())`.execute(db);
      await sql`INSERT INTO es_checkpoints SELECT name, coalesce(commit_position, 0), coalesce(prepare_position, 0),
        updated_at FROM processor_checkpoints WHERE name LIKE 'pm:%'`.execute(db);
      await sql`DELETE FROM processor_checkpoints WHERE name LIKE 'pm:%'`.execute(db);
      await sql`ALTER TABLE processor_checkpoints RENAME TO projection_checkpoints`.execute(db);
    },
  },
};
