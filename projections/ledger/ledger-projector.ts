import { sql } from 'kysely';
import type { StakeEvent } from '../../domain/stake/events.ts';
import type { Projector } from '../runner/projector.ts';

/**
 * The money ledger: one row per stake that took money, with its split (donation to the chosen charity, service
 * fee). Per-user, per-charity (donations owed) and fee totals are sums over it (ledger-queries.ts). The stake's
 * owner comes from StakeOpened, remembered in ledger_stake_owners.
 */
export const ledgerProjector: Projector<'ledger_entries' | 'ledger_stake_owners'> = {
  name: 'ledger',
  version: 1,
  tables: ['ledger_entries', 'ledger_stake_owners'],

  async createTables(db, tables) {
    await sql`
      CREATE TABLE IF NOT EXISTS ${sql.table(tables.ledger_stake_owners)} (
        stake_id text PRIMARY KEY, user_id text NOT NULL, charity_id text
      )`.execute(db);
    await sql`
      CREATE TABLE IF NOT EXISTS ${sql.table(tables.ledger_entries)} (
        stake_id text PRIMARY KEY,
        user_id text NOT NULL,
        charity_id text,
        outcome text NOT NULL,
        method text NOT NULL,
        payment_intent_id text NOT NULL,
        captured_cents integer NOT NULL,
        donation_cents integer NOT NULL,
        fee_cents integer NOT NULL,
        collected_at timestamptz NOT NULL
      )`.execute(db);
    await sql`
      CREATE INDEX IF NOT EXISTS ${sql.id(`${tables.ledger_entries}_charity`)}
      ON ${sql.table(tables.ledger_entries)} (charity_id)`.execute(db);
  },

  async apply(events, { tx, tables }) {
    const owners = sql.table(tables.ledger_stake_owners);
    const entries = sql.table(tables.ledger_entries);
    for (const recorded of events) {
      if (!recorded.streamId.startsWith('stake-') || recorded.streamId.startsWith('stake-release-')) continue;
      const event = recorded as unknown as StakeEvent;
      if (event.type === 'StakeOpened') {
        const d = event.data;
        await sql`INSERT INTO ${owners} VALUES (${d.stakeId}, ${d.userId}, ${d.charityId})
                  ON CONFLICT (stake_id) DO NOTHING`.execute(tx);
      } else if (event.type === 'StakeCollected') {
        const d = event.data;
        // The stake is final once collected; a second StakeCollected cannot happen, and would not double count.
        await sql`
          INSERT INTO ${entries}
          SELECT ${d.stakeId}, o.user_id, ${d.charityId}, ${d.outcome}, ${d.method}, ${d.paymentIntentId},
                 ${d.capturedCents}::int, ${d.donationCents}::int, ${d.feeCents}::int, ${d.collectedAt}::timestamptz
          FROM ${owners} o WHERE o.stake_id = ${d.stakeId}
          ON CONFLICT (stake_id) DO NOTHING`.execute(tx);
      }
    }
  },
};
