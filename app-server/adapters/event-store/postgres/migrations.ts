import { type Kysely, sql } from 'kysely';
import type { Migration } from 'kysely/migration';
import { appendFunctionSql } from './append-function.ts';
import { appendManyFunctionSql } from './append-many-function.ts';
import { visibleHorizonFunctionSql } from './visible-horizon.ts';

/** Schema owned by this module; registered in app-server/db/migrations/index.ts. */
export const eventStoreMigrations: Record<string, Migration> = {
  '2026-11-22-01-event-store-tables': {
    async up(db: Kysely<unknown>) {
      // One row per stream: the row lock serialises writers of one stream and holds the revision to check.
      await db.schema
        .createTable('es_streams')
        .addColumn('stream_id', 'text', (c) => c.primaryKey())
        .addColumn('revision', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('es_events')
        .addColumn('global_position', 'bigserial', (c) => c.notNull())
        // The writing transaction's id orders the global log: a reader only passes ids below the oldest open
        // transaction, so a transaction that commits late with a lower sequence number is never skipped.
        .addColumn('tx_id', 'bigint', (c) => c.notNull().defaultTo(sql`(pg_current_xact_id()::text::bigint)`))
        .addColumn('stream_id', 'text', (c) => c.notNull())
        .addColumn('stream_revision', 'bigint', (c) => c.notNull())
        .addColumn('event_id', 'uuid', (c) => c.notNull().unique())
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('data', 'jsonb', (c) => c.notNull())
        .addColumn('metadata', 'jsonb', (c) => c.notNull())
        .addColumn('recorded_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        // The log order is the primary key: readers scan it, and nothing looks events up by sequence alone, so a
        // separate index on global_position would only add a write to every append.
        .addPrimaryKeyConstraint('es_events_pkey', ['tx_id', 'global_position'])
        .addUniqueConstraint('es_events_stream_revision_key', ['stream_id', 'stream_revision'])
        .execute();
      await db.schema
        .createTable('es_checkpoints')
        .addColumn('name', 'text', (c) => c.primaryKey())
        .addColumn('commit_position', 'bigint', (c) => c.notNull())
        .addColumn('prepare_position', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .execute();
      await sql.raw(appendFunctionSql).execute(db);
    },
    async down(db: Kysely<unknown>) {
      await sql`drop function if exists es_append(text, text, jsonb, text)`.execute(db);
      await db.schema.dropTable('es_checkpoints').ifExists().execute();
      await db.schema.dropTable('es_events').ifExists().execute();
      await db.schema.dropTable('es_streams').ifExists().execute();
    },
  },
  // Streams remember their last writer's transaction id, and es_append locks a stream before writing anything, so
  // a stream's revisions can never be listed out of order in the transaction-ordered log (see append-function.ts).
  '2026-11-23-01-event-store-stream-order': {
    async up(db: Kysely<unknown>) {
      await sql`alter table es_streams add column last_tx_id bigint`.execute(db);
      await sql`
        update es_streams s set last_tx_id = e.last_tx_id
        from (select stream_id, max(tx_id) as last_tx_id from es_events group by stream_id) e
        where e.stream_id = s.stream_id`.execute(db);
      await sql.raw(appendFunctionSql).execute(db);
    },
    async down(db: Kysely<unknown>) {
      await sql`alter table es_streams drop column if exists last_tx_id`.execute(db);
    },
  },
  // The log's read horizon no longer waits for other databases' transactions (see visible-horizon.ts).
  '2026-11-23-02-event-store-database-horizon': {
    async up(db: Kysely<unknown>) {
      await sql.raw(visibleHorizonFunctionSql).execute(db);
    },
    async down(db: Kysely<unknown>) {
      await sql`drop function if exists es_visible_horizon()`.execute(db);
    },
  }, // Many streams appended in a few set-based statements, not one es_append per stream (see append-many-function.ts).
  '2026-11-28-01-event-store-append-many': {
    async up(db: Kysely<unknown>) {
      await sql.raw(appendManyFunctionSql).execute(db);
    },
    async down(db: Kysely<unknown>) {
      await sql`drop function if exists es_append_many(jsonb, text)`.execute(db);
    },
  },
  /*
   * An event's data goes out of line uncompressed when it is large (STORAGE EXTERNAL), instead of PostgreSQL first
   * trying pglz on it. The only large events are runs, and what makes them large is the sealed track: ciphertext,
   * which never compresses (of the bench log's 19,524 stored runs none was), so every append paid for a failed
   * attempt. Appending eight bench runs (15.7 KB each) in es_append_many: 2.3 → 1.1 ms (docs/PERFORMANCE.md).
   * Catalog only: no row is rewritten, and the values stored already read as before.
   */
  '2026-11-29-01-event-data-stored-uncompressed': {
    async up(db: Kysely<unknown>) {
      await sql`alter table es_events alter column data set storage external`.execute(db);
    },
    async down(db: Kysely<unknown>) {
      await sql`alter table es_events alter column data set storage extended`.execute(db);
    },
  },
};
