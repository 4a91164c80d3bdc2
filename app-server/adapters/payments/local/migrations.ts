import { type Kysely, sql } from 'kysely';
import type { Migration } from 'kysely/migration';

/** Schema of the local payment gateway; registered in app-server/db/migrations/index.ts. */
export const localGatewayMigrations: Record<string, Migration> = {
  '2026-11-22-05-local-payments-tables': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('payments_local_customers')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull().unique())
        .addColumn('email', 'text', (c) => c.notNull())
        .addColumn('created_at', 'timestamptz', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('payments_local_payment_methods')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('customer_id', 'text')
        .addColumn('brand', 'text', (c) => c.notNull())
        .addColumn('last4', 'text', (c) => c.notNull())
        .addColumn('exp_month', 'integer', (c) => c.notNull())
        .addColumn('exp_year', 'integer', (c) => c.notNull())
        .addColumn('behaviour', 'text', (c) => c.notNull())
        .addColumn('created_at', 'timestamptz', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('payments_local_payment_methods_customer')
        .on('payments_local_payment_methods')
        .column('customer_id')
        .execute();
      await db.schema
        .createTable('payments_local_setup_intents')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('customer_id', 'text', (c) => c.notNull())
        .addColumn('client_secret', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('payment_method_id', 'text')
        .addColumn('created_at', 'timestamptz', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('payments_local_payment_intents')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('customer_id', 'text', (c) => c.notNull())
        .addColumn('payment_method_id', 'text', (c) => c.notNull())
        // Cents: integers, never floating point.
        .addColumn('amount', 'integer', (c) => c.notNull().check(sql`amount > 0`))
        .addColumn('amount_capturable', 'integer', (c) => c.notNull())
        .addColumn('amount_received', 'integer', (c) => c.notNull())
        .addColumn('capture_method', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('client_secret', 'text', (c) => c.notNull())
        .addColumn('capture_before', 'timestamptz')
        .addColumn('last_error_code', 'text')
        .addColumn('cancellation_reason', 'text')
        .addColumn('metadata', 'jsonb', (c) => c.notNull())
        .addColumn('created_at', 'timestamptz', (c) => c.notNull())
        .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
        .execute();
      // The sweep looks for holds past their deadline.
      await db.schema
        .createIndex('payments_local_payment_intents_open_holds')
        .on('payments_local_payment_intents')
        .columns(['status', 'capture_before'])
        .execute();
      await db.schema
        .createTable('payments_local_idempotency')
        .addColumn('key', 'text', (c) => c.primaryKey())
        .addColumn('request_hash', 'text', (c) => c.notNull())
        .addColumn('response', 'jsonb')
        .addColumn('created_at', 'timestamptz', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('payments_local_events')
        .addColumn('sequence', 'bigserial', (c) => c.primaryKey())
        .addColumn('id', 'text', (c) => c.notNull().unique())
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('payment_intent_id', 'text')
        .addColumn('body', 'text', (c) => c.notNull())
        .addColumn('created_at', 'timestamptz', (c) => c.notNull())
        .execute();
    },
    async down(db: Kysely<unknown>) {
      for (const table of [
        'payments_local_events',
        'payments_local_idempotency',
        'payments_local_payment_intents',
        'payments_local_setup_intents',
        'payments_local_payment_methods',
        'payments_local_customers',
      ]) {
        await db.schema.dropTable(table).ifExists().execute();
      }
    },
  },
  // Saving a card the way Stripe does: a card may be refused, or wait for the cardholder to authenticate.
  '2026-12-10-01-local-setup-intent-outcomes': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .alterTable('payments_local_setup_intents')
        .addColumn('pending_card', 'text')
        .addColumn('last_setup_error', 'jsonb')
        .execute();
      await db.schema
        .createIndex('payments_local_setup_intents_client_secret')
        .on('payments_local_setup_intents')
        .column('client_secret')
        .unique()
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropIndex('payments_local_setup_intents_client_secret').ifExists().execute();
      await db.schema
        .alterTable('payments_local_setup_intents')
        .dropColumn('pending_card')
        .dropColumn('last_setup_error')
        .execute();
    },
  },
  '2026-12-23-01-local-refunds': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('payments_local_refunds')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('payment_intent_id', 'text', (c) => c.notNull())
        .addColumn('amount', 'integer', (c) => c.notNull())
        .addColumn('metadata', 'jsonb', (c) => c.notNull())
        .addColumn('created_at', 'timestamptz', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('payments_local_refunds_payment_intent')
        .on('payments_local_refunds')
        .column('payment_intent_id')
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('payments_local_refunds').ifExists().execute();
    },
  },
};
