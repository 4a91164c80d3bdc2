import { type Kysely, sql } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * The stake process's own memory, written in its subscription's transaction (exactly once with its checkpoint):
 * - stake_process_stakes: each stake's status as the stake stream last said, with the dates the clock needs
 *   (a hold's deadline, the next charge attempt, a miss waiting for its settlement moment);
 * - stake_actions: every provider call a stake event asked for, keyed by its deterministic idempotency key, until
 *   its outcome is recorded. A tick works through it outside any transaction (a provider call cannot be rolled back).
 * payment_customers maps a user to the processor's customer; payment_webhook_events deduplicates webhooks by id.
 */
async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE payment_customers (
      user_id text PRIMARY KEY,
      customer_id text NOT NULL UNIQUE,
      created_at timestamptz NOT NULL
    )`.execute(db);
  await sql`
    CREATE TABLE stake_process_stakes (
      stake_id text PRIMARY KEY,
      goal_id text NOT NULL,
      user_id text NOT NULL,
      status text NOT NULL,
      hold_payment_intent_id text,
      capture_before timestamptz,
      next_attempt_at timestamptz,
      awaiting_settlement boolean NOT NULL DEFAULT false
    )`.execute(db);
  await sql`CREATE INDEX stake_process_stakes_status ON stake_process_stakes (status)`.execute(db);
  await sql`CREATE INDEX stake_process_stakes_hold ON stake_process_stakes (hold_payment_intent_id)`.execute(db);
  await sql`
    CREATE TABLE stake_actions (
      idempotency_key text PRIMARY KEY,
      stake_id text NOT NULL,
      kind text NOT NULL,
      payment_intent_id text,
      attempt integer,
      requested_at timestamptz NOT NULL,
      attempted_at timestamptz,
      next_try_at timestamptz NOT NULL,
      tries integer NOT NULL DEFAULT 0,
      last_error text,
      needs_review boolean NOT NULL DEFAULT false,
      done_at timestamptz,
      result text
    )`.execute(db);
  await sql`CREATE INDEX stake_actions_open ON stake_actions (next_try_at) WHERE done_at IS NULL`.execute(db);
  await sql`
    CREATE TABLE payment_webhook_events (
      id text PRIMARY KEY,
      type text NOT NULL,
      payment_intent_id text,
      received_at timestamptz NOT NULL
    )`.execute(db);
}

/**
 * What each verified webhook came to: `applied` (a stake moved), `no_change`, or why it named nothing of ours
 * (`unknown_payment_intent`, `no_payment_intent`, `no_stake`, `unknown_stake`). Such an event is answered 2xx (the
 * processor would otherwise retry it for days) and kept here for an operator to look at.
 */
async function upWebhookOutcome(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE payment_webhook_events ADD COLUMN outcome text`.execute(db);
}

/**
 * The stake events handler closes a stake's open actions of a kind (a capture when the hold lapsed, a capture and a
 * charge when the money is collected): found on this index instead of among every open action, which on a settlement
 * Monday are as many as the stakes being settled.
 */
async function upOpenByStake(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE INDEX stake_actions_open_by_stake ON stake_actions (stake_id, kind) WHERE done_at IS NULL`.execute(
    db,
  );
}

/**
 * The by-stake index over every action, open or done, instead of only the open ones: the closes then probe it by stake
 * and kind and check `done_at` on the row found (action-row-writes.ts), so no plan depends on how many rows a partial
 * index held when statistics were last gathered. A stake has a handful of actions of a kind at most.
 */
async function upByStake(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE INDEX stake_actions_by_stake ON stake_actions (stake_id, kind)`.execute(db);
  await sql`DROP INDEX stake_actions_open_by_stake`.execute(db);
}

/**
 * The action pages' query (dueActions in stake-action-row.ts: the oldest open actions due, 200 at a time) walks this
 * index in its own order and stops after a page. It replaces the index on next_try_at, which only that query used:
 * beside it, PostgreSQL planned from statistics gathered before a Monday's charges were queued (one open row guessed,
 * 50,000 there) and read every open action due, then sorted them, for each page: 14 ms a page at 100,000 goals, one
 * page after another, 3.5 s of a settlement's critical path; 0.1 ms a page on this one.
 */
async function upOpenInOrder(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE INDEX stake_actions_open_in_order ON stake_actions (requested_at, idempotency_key)
    WHERE done_at IS NULL AND NOT needs_review`.execute(db);
  await sql`DROP INDEX stake_actions_open`.execute(db);
}

/** Migrations of the stake settlement process. */
export const stakeProcessMigrations: Record<string, Migration> = {
  '2026-11-26-02-stake-process': { up },
  '2026-12-21-01-payment-webhook-outcome': { up: upWebhookOutcome },
  '2026-12-27-01-stake-actions-open-by-stake': { up: upOpenByStake },
  '2026-12-29-01-stake-actions-by-stake': { up: upByStake },
  '2026-12-30-01-stake-actions-open-in-order': { up: upOpenInOrder },
};
