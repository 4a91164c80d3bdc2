import type { ColumnType, Generated } from 'kysely';

/** Rows of the event-store tables as kysely sees them (int8 arrives as a JS number, see app-server/db). */
export interface EventStoreTables {
  es_streams: { stream_id: string; revision: number; last_tx_id: number | null };
  es_events: {
    global_position: Generated<number>;
    tx_id: Generated<number>;
    stream_id: string;
    stream_revision: number;
    event_id: string;
    type: string;
    data: unknown;
    metadata: unknown;
    recorded_at: ColumnType<Date, never, never>;
  };
}
