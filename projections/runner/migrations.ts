import { type Kysely, sql } from 'kysely';
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
  },
};
