import { sqlRecords } from '../sql-records.ts';
import { sql } from 'kysely';
import type { RecordedEvent } from '../../domain/shared/event-store.ts';
import type { Projector } from '../engine/projector.ts';

/**
 * Operators' view of the log: how many events of each type, and the first and last global position of each.
 * Small on purpose: it proves the runner (batches, checkpoints, rebuild and swap) on a real table.
 */
export const logStatsProjector: Projector<'log_stats'> = {
  name: 'log-stats',
  version: 1,
  // It counts the events of every type, so it reads them all (without their GPS tracks).
  eventTypes: 'all',
  tables: ['log_stats'],

  async createTables(db, tables) {
    await sql`
      CREATE TABLE IF NOT EXISTS ${sql.table(tables.log_stats)} (
        event_type text PRIMARY KEY,
        event_count bigint NOT NULL,
        first_global_position bigint NOT NULL,
        last_global_position bigint NOT NULL,
        last_occurred_at timestamptz NOT NULL
      )`.execute(db);
  },

  async apply(events, { tx, tables }) {
    const rows = summarise(events);
    if (rows.length === 0) return;
    // One statement per batch, whatever its size: the batch is folded in memory first.
    await sql`
      INSERT INTO ${sql.table(tables.log_stats)} AS s
        (event_type, event_count, first_global_position, last_global_position, last_occurred_at)
      SELECT * FROM ${sqlRecords(rows, 'event_type text, event_count bigint, first_global_position bigint, last_global_position bigint, last_occurred_at timestamptz')} AS r
      ON CONFLICT (event_type) DO UPDATE SET
        event_count = s.event_count + excluded.event_count,
        last_global_position = excluded.last_global_position,
        last_occurred_at = excluded.last_occurred_at`.execute(tx);
  },
};

interface StatsRow {
  event_type: string;
  event_count: number;
  first_global_position: number;
  last_global_position: number;
  last_occurred_at: string;
}

function summarise(events: readonly RecordedEvent[]): StatsRow[] {
  const byType = new Map<string, StatsRow>();
  for (const event of events) {
    const row = byType.get(event.type);
    if (row) {
      row.event_count++;
      row.last_global_position = event.globalPosition;
      row.last_occurred_at = event.metadata.occurredAt;
    } else {
      byType.set(event.type, {
        event_type: event.type,
        event_count: 1,
        first_global_position: event.globalPosition,
        last_global_position: event.globalPosition,
        last_occurred_at: event.metadata.occurredAt,
      });
    }
  }
  return [...byType.values()];
}
