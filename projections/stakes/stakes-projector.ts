import { eventTypesOf } from '../../domain/shared/event-schema.ts';
import { sql } from 'kysely';
import { StakeEvent } from '../../domain/stake/events.ts';
import type { Projector } from '../engine/projector.ts';
import { nextStakeRow, type StakesTable } from './stake-row.ts';
import { isStakeStream } from '../../domain/shared/streams.ts';

/**
 * Stakes (§3 Stake) for the Stakes tab (`GET /stakes`) and the donation impact card (status lost with a charity).
 * Each row carries the folded aggregate state, so the status is the aggregate's own, not a re-implementation.
 */
export const stakesProjector: Projector<'stakes'> = {
  name: 'stakes',
  // 2: decline_code, and hold failures shown as a payment problem. 3: the hold's timeline, refunded_cents.
  // 4: appeals, the collection and refunds in the folded state (issue 25).
  version: 4,
  // The stake stream's every event, folded with the aggregate's own evolve (stake-row.ts).
  eventTypes: eventTypesOf(StakeEvent),
  tables: ['stakes'],

  async createTables(db, tables) {
    await sql`
      CREATE TABLE IF NOT EXISTS ${sql.table(tables.stakes)} (
        id text PRIMARY KEY,
        goal_id text NOT NULL,
        user_id text NOT NULL,
        week_start text NOT NULL,
        amount_cents integer NOT NULL,
        charity_id text,
        status text NOT NULL,
        stage text NOT NULL,
        captured_cents integer NOT NULL,
        donation_amount_cents integer NOT NULL,
        fee_cents integer NOT NULL,
        last_failure text,
        decline_code text,
        next_attempt_at timestamptz,
        hold_capture_before timestamptz,
        created_at timestamptz NOT NULL,
        settled_at timestamptz,
        refunded_cents integer NOT NULL,
        state jsonb NOT NULL,
        hold jsonb NOT NULL
      )`.execute(db);
    await sql`
      CREATE INDEX IF NOT EXISTS ${sql.id(`${tables.stakes}_user_created`)}
      ON ${sql.table(tables.stakes)} (user_id, created_at DESC)`.execute(db);
  },

  async apply(events, { tx, tables, announce }) {
    const relevant = events.filter((e) => isStakeStream(e.streamId));
    if (relevant.length === 0) return;
    const table = sql.table(tables.stakes);
    const ids = [...new Set(relevant.map((e) => (e.data as { stakeId: string }).stakeId))];
    const { rows: existing } = await sql<StakesTable>`SELECT * FROM ${table} WHERE id = ANY(${ids}::text[])`.execute(
      tx,
    );
    const rows = new Map<string, StakesTable | null>(existing.map((r) => [r.id, r]));
    for (const event of relevant) {
      const stake = event as unknown as StakeEvent;
      rows.set(stake.data.stakeId, nextStakeRow(rows.get(stake.data.stakeId) ?? null, stake));
    }
    const changed = [...rows.values()].filter((r): r is StakesTable => r !== null);
    await sql`
      INSERT INTO ${table}
      SELECT * FROM jsonb_populate_recordset(NULL::${table}, ${JSON.stringify(changed)}::jsonb)
      ON CONFLICT (id) DO UPDATE SET
        status = EXCLUDED.status, stage = EXCLUDED.stage, captured_cents = EXCLUDED.captured_cents,
        donation_amount_cents = EXCLUDED.donation_amount_cents, fee_cents = EXCLUDED.fee_cents,
        last_failure = EXCLUDED.last_failure, decline_code = EXCLUDED.decline_code,
        next_attempt_at = EXCLUDED.next_attempt_at,
        hold_capture_before = EXCLUDED.hold_capture_before, settled_at = EXCLUDED.settled_at,
        refunded_cents = EXCLUDED.refunded_cents, state = EXCLUDED.state, hold = EXCLUDED.hold`.execute(tx);
    for (const userId of new Set(changed.map((r) => r.user_id))) announce(userId, 'stakes');
  },
};
