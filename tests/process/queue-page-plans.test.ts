import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IntegrationTables } from '../../app-server/integrations/tables.ts';
import { dueActions, dueActionsStatement } from '../../app-server/process/stakes/stake-action-row.ts';
import { dueWebhookEvents } from '../../app-server/process/strava/webhook-inbox.ts';
import { type DatabaseTarget, databaseTargets, startTestRuntime, type TestRuntime } from '../support/test-runtime.ts';

/*
 * On a settlement Monday the stake worker takes the oldest due actions 200 at a time while tens of thousands wait,
 * queued since statistics were last gathered (which then said: none open). Planned from those statistics, the page read
 * every open action due and sorted them, for every page: 14 ms a page at 100,000 goals, 3.5 s of the critical path.
 * Whatever the planner believes, the page must be an ordered walk of the open actions' index that stops at the page.
 * The Strava webhook inbox is worked the same way (oldest events due, a batch at a time), and is held to the same.
 */
const now = new Date('2026-11-16T15:00:00Z');
type Db = TestRuntime['database']['db'];

/**
 * A runtime whose queue `table` holds 3,000 rows worked before (`worked`), then analyzed, then 3,000 open rows queued
 * after the statistics (`open`): the planner believes none are open. `insert(db, prefix, count, worked)` fills it.
 */
function queueAnalyzedBeforeItsOpenRows(
  target: DatabaseTarget,
  table: string,
  prefixes: { worked: string; open: string },
  insert: (db: Db, prefix: string, count: number, worked: boolean) => Promise<void>,
): () => TestRuntime {
  let rt: TestRuntime | undefined;
  beforeAll(async () => {
    rt = await startTestRuntime(target, { now: now.toISOString() });
    const db = rt.database.db;
    await insert(db, prefixes.worked, 3_000, true);
    await sql`ANALYZE ${sql.table(table)}`.execute(db);
    await insert(db, prefixes.open, 3_000, false);
  }, 60_000);
  afterAll(() => rt?.close());
  return () => rt!;
}

describe.each(databaseTargets())('the stake worker pages through due actions in index order: %s', (target) => {
  // Last week's actions, all done, and the statistics gathered then; Monday's charges queued after them, in an order
  // unlike their keys'.
  const runtime = queueAnalyzedBeforeItsOpenRows(
    target,
    'stake_actions',
    { worked: 'done', open: 'open' },
    insertActions,
  );

  async function insertActions(db: Db, prefix: string, count: number, done: boolean) {
    await sql`
      INSERT INTO stake_actions (idempotency_key, stake_id, kind, attempt, requested_at, next_try_at, done_at, result)
      SELECT ${prefix} || '-' || lpad(((g * 7919) % ${count})::text, 5, '0'), 'stake-' || g, 'charge', 1,
             ${now.toISOString()}::timestamptz - make_interval(secs => g), ${now.toISOString()}::timestamptz - interval '1 hour',
             CASE WHEN ${done} THEN ${now.toISOString()}::timestamptz END, CASE WHEN ${done} THEN 'collected:charge' END
      FROM generate_series(1, ${count}) AS g`.execute(db);
  }

  it('walks the index in its order, with no sort of every open action', async () => {
    const { rows } = await sql<{ 'QUERY PLAN': string }>`EXPLAIN ${dueActionsStatement(now, 200)}`.execute(
      runtime().database.db,
    );
    const plan = rows.map((r) => r['QUERY PLAN']).join('\n');
    expect(plan).toMatch(/Index Scan using stake_actions_open_in_order/);
    expect(plan).not.toMatch(/Sort/);
  });

  it('answers the oldest due actions first', async () => {
    const page = await dueActions(runtime().database.db, now, 200);
    expect(page).toHaveLength(200);
    expect(page.every((a) => a.idempotency_key.startsWith('open-'))).toBe(true);
    // requested_at = now − g seconds: the oldest are g = 3000, 2999, …
    expect(page.map((a) => a.stake_id)).toEqual(Array.from({ length: 200 }, (_, i) => `stake-${3_000 - i}`));
  });
});

describe.each(databaseTargets())('the Strava sync takes its webhook batch in index order: %s', (target) => {
  // Yesterday's events, all worked, and the statistics gathered then; today's burst arrives after them.
  const runtime = queueAnalyzedBeforeItsOpenRows(
    target,
    'strava_webhook_inbox',
    { worked: 'worked', open: 'burst' },
    insertEvents,
  );

  async function insertEvents(db: Db, prefix: string, count: number, worked: boolean) {
    await sql`
      INSERT INTO strava_webhook_inbox (id, received_at, payload, next_attempt_at, processed_at, outcome)
      SELECT ${prefix} || '-' || lpad(((g * 7919) % ${count})::text, 5, '0'),
             ${now.toISOString()}::timestamptz - make_interval(secs => g), '{}'::jsonb,
             ${now.toISOString()}::timestamptz - interval '1 hour',
             CASE WHEN ${worked} THEN ${now.toISOString()}::timestamptz END, CASE WHEN ${worked} THEN 'imported' END
      FROM generate_series(1, ${count}) AS g`.execute(db);
  }

  it('walks the index in its order, with no sort of every open event', async () => {
    const rows = await dueWebhookEvents(runtime().database.db.withTables<IntegrationTables>(), now).explain();
    const plan = rows.map((r) => (r as { 'QUERY PLAN': string })['QUERY PLAN']).join('\n');
    expect(plan).toMatch(/Index Scan using strava_webhook_inbox_open_in_order/);
    expect(plan).not.toMatch(/Sort/);
  });

  it('answers the oldest events due first', async () => {
    const batch = await dueWebhookEvents(runtime().database.db.withTables<IntegrationTables>(), now).execute();
    expect(batch.length).toBeGreaterThan(0);
    expect(batch.every((e) => e.id.startsWith('burst-'))).toBe(true);
    const times = batch.map((e) => new Date(e.received_at).getTime());
    expect(times).toEqual([...times].sort((a, b) => a - b));
    // received_at = now − g seconds: the oldest is g = 3000.
    expect(times[0]).toBe(now.getTime() - 3_000_000);
  });
});
