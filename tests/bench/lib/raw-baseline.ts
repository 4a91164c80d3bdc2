import type pg from 'pg';
import { benchEvent, secondsSince, throughput } from './bench-events.ts';

/**
 * The ceiling: plain PostgreSQL doing the same shape of work with no event-store logic (no stream row, no version
 * check, no ordering horizon): single-row INSERTs, 100-row INSERTs, and index-ordered batched reads.
 */
export async function prepareRawTable(pool: pg.Pool): Promise<void> {
  await pool.query(`create table raw_events (
    id bigserial primary key, stream_id text not null, stream_revision bigint not null, event_id uuid not null unique,
    type text not null, data jsonb not null, metadata jsonb not null, recorded_at timestamptz not null default now())`);
}

/** Single-row autocommit INSERTs per second with `writers` connections. */
export function rawSingleInserts(pool: pg.Pool, writers: number, durationMs: number): Promise<number> {
  return throughput(writers, durationMs, async (writer, i) => {
    const e = benchEvent(`raw-${writer}-${i}`, 0);
    await pool.query(
      'insert into raw_events (stream_id, stream_revision, event_id, type, data, metadata) values ($1, $2, $3, $4, $5, $6)',
      [`raw-${writer}-${i}`, 0, e.metadata.eventId, e.type, JSON.stringify(e.data), JSON.stringify(e.metadata)],
    );
    return 1;
  });
}

/** Rows per second inserted by multi-row INSERT statements of `size` rows. */
export function rawBatchInserts(pool: pg.Pool, size: number, durationMs: number): Promise<number> {
  const placeholders = Array.from(
    { length: size },
    (_, r) => `($${r * 6 + 1}, $${r * 6 + 2}, $${r * 6 + 3}, $${r * 6 + 4}, $${r * 6 + 5}, $${r * 6 + 6})`,
  ).join(', ');
  const text = `insert into raw_events (stream_id, stream_revision, event_id, type, data, metadata) values ${placeholders}`;
  return throughput(1, durationMs, async (_, i) => {
    const values: unknown[] = [];
    for (let r = 0; r < size; r++) {
      const e = benchEvent(`rawb-${i}`, r);
      values.push(`rawb-${i}`, r, e.metadata.eventId, e.type, JSON.stringify(e.data), JSON.stringify(e.metadata));
    }
    await pool.query(text, values);
    return size;
  });
}

/** Rows per second reading the whole table in primary-key order, `batchSize` rows per query. */
export async function rawOrderedRead(pool: pg.Pool, batchSize: number): Promise<number> {
  const started = performance.now();
  let after = 0;
  let rows = 0;
  for (;;) {
    const result = await pool.query(
      'select id, stream_id, stream_revision, type, data, metadata, recorded_at from raw_events where id > $1 order by id limit $2',
      [after, batchSize],
    );
    if (result.rows.length === 0) break;
    rows += result.rows.length;
    after = Number(result.rows.at(-1).id);
  }
  return rows / secondsSince(started);
}
