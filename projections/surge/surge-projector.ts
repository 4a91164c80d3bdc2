import { type Kysely, sql, type Transaction } from 'kysely';
import type { RecordedEvent } from '../../domain/shared/event-store.ts';
import type { SurgeEvent } from '../../domain/surge/events.ts';
import type { Projector, TableNames } from '../engine/projector.ts';

/** §3 Surge event, as scheduled; its status (scheduled, active, ended) is derived from the clock by the API. */
export type SurgeRow = {
  surge_id: string;
  xp_multiplier: number;
  starts_at: Date;
  ends_at: Date;
  scheduled_at: Date;
  canceled_at: Date | null;
};

/** Kysely view of the surge read model under its live name. */
export type SurgeTables = { surges: SurgeRow };

async function createTables(db: Kysely<object> | Transaction<object>, t: TableNames<'surges'>) {
  await sql`
    CREATE TABLE IF NOT EXISTS ${sql.table(t.surges)} (
      surge_id text PRIMARY KEY,
      xp_multiplier numeric NOT NULL,
      starts_at timestamptz NOT NULL,
      ends_at timestamptz NOT NULL,
      scheduled_at timestamptz NOT NULL,
      canceled_at timestamptz
    )`.execute(db);
}

function surgeEvents(events: readonly RecordedEvent[]): SurgeEvent[] {
  return events
    .filter((e) => e.type === 'SurgeScheduled' || e.type === 'SurgeCanceled')
    .map((e) => ({ type: e.type, data: e.data }) as SurgeEvent);
}

/** The surge schedule (GET /surge/active, /upcoming, /history); surges are rare, one statement per event is fine. */
export const surgeProjector: Projector<'surges'> = {
  name: 'surges',
  version: 1,
  eventTypes: ['SurgeScheduled', 'SurgeCanceled'] satisfies SurgeEvent['type'][],
  tables: ['surges'],
  createTables,
  async apply(events, { tx, tables }) {
    for (const event of surgeEvents(events)) {
      if (event.type === 'SurgeScheduled') {
        const d = event.data;
        await sql`
          INSERT INTO ${sql.table(tables.surges)} (surge_id, xp_multiplier, starts_at, ends_at, scheduled_at)
          VALUES (${d.surgeId}, ${d.xpMultiplier}, ${d.startsAt}, ${d.endsAt}, ${d.scheduledAt})
          ON CONFLICT (surge_id) DO NOTHING`.execute(tx);
      } else {
        await sql`UPDATE ${sql.table(tables.surges)} SET canceled_at = ${event.data.canceledAt}
          WHERE surge_id = ${event.data.surgeId}`.execute(tx);
      }
    }
  },
};
