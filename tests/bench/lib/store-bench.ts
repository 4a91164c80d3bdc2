import pg from 'pg';
import { createPostgresEventStore } from '../../../app-server/adapters/event-store/postgres/postgres-event-store.ts';
import { openDatabase } from '../../../app-server/db/database.ts';
import { migrateEventStore } from '../../contract/support/migrate-event-store.ts';
import { createScratchDatabase } from '../../contract/support/scratch-database.ts';
import { emmettAppends, emmettLostUnderLoad, emmettRebuild, openEmmett } from './emmett-runner.ts';
import { oursBatchAppends, oursLostUnderLoad, oursRebuild, oursSingleAppends } from './ours-runner.ts';
import { prepareRawTable, rawBatchInserts, rawOrderedRead, rawSingleInserts } from './raw-baseline.ts';
import { printStoreTable, type StoreBenchRow } from './store-table.ts';

export interface StoreBenchOptions {
  /** Server to bench on; a scratch database is created there and dropped afterwards. */
  readonly databaseUrl?: string;
  /** Seconds per append measurement. */
  readonly seconds?: number;
  /** Events in our log before the rebuild is timed. */
  readonly rebuildEvents?: number;
}

/** Runs the store bench (ours vs raw PostgreSQL vs Emmett 0.42) and prints the table; returns the rows. */
export async function runStoreBench(options: StoreBenchOptions = {}): Promise<StoreBenchRow[]> {
  const baseUrl = options.databaseUrl ?? process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const ms = (options.seconds ?? 3) * 1000;
  const rebuildEvents = options.rebuildEvents ?? 200_000;
  const scratch = await createScratchDatabase(baseUrl, 'es_bench');
  const database = await openDatabase({ databaseUrl: scratch.url, poolSize: 10 });
  const raw = new pg.Pool({ connectionString: scratch.url, max: 10 });
  const emmett = openEmmett(scratch.url);
  try {
    await migrateEventStore(database.db);
    await prepareRawTable(raw);
    const store = createPostgresEventStore(database);
    // A live follower, as in production, so every append pays for its wake-up notification.
    const unlisten = store.onAppended(() => {});
    await emmett.schema.migrate();
    const progress = (label: string) => process.stdout.write(`  … ${label}\n`);

    progress('single-event appends, 1 writer');
    const single1 = {
      ours: await oursSingleAppends(store, 1, ms),
      raw: await rawSingleInserts(raw, 1, ms),
      emmett: await emmettAppends(emmett, 1, 1, ms),
    };
    progress('single-event appends, 8 writers');
    const single8 = {
      ours: await oursSingleAppends(store, 8, ms),
      raw: await rawSingleInserts(raw, 8, ms),
      emmett: await emmettAppends(emmett, 8, 1, ms),
    };
    progress('100-event appends');
    const batch = {
      ours: await oursBatchAppends(store, 100, ms),
      raw: await rawBatchInserts(raw, 100, ms),
      emmett: await emmettAppends(emmett, 1, 100, ms),
    };

    progress(`filling logs to ${rebuildEvents} events`);
    await fillTo(raw, 'raw_events', rebuildEvents, () => rawBatchInserts(raw, 1000, 1000));
    await fillTo(raw, 'es_events', rebuildEvents, () => oursBatchAppends(store, 1000, 1000, 'fill'));
    progress('catch-up (rebuild)');
    const rebuild = {
      ours: await oursRebuild(store, `rebuild-${Date.now()}`, 2000),
      raw: await rawOrderedRead(raw, 2000),
      emmett: await emmettRebuild(scratch.url, 100, 15),
    };
    progress('rebuild under 8 concurrent writers');
    const oursLost = await oursLostUnderLoad(store, 8, 5000);
    const emmettLost = await emmettLostUnderLoad(emmett, scratch.url, 8, 5000);
    unlisten();
    await store.close();

    const rows: StoreBenchRow[] = [
      { name: 'single-event appends/s, 1 writer', ...single1, target: '—' },
      { name: 'single-event appends/s, 8 writers', ...single8, target: 'ours ≥ 60% of raw' },
      { name: '100-event appends, events/s', ...batch, target: 'ours ≥ 40% of raw' },
      { name: 'global-log catch-up (rebuild), events/s', ...rebuild, target: 'ours ≥ 100,000/s and ≥ 25× Emmett' },
    ];
    printStoreTable(rows, {
      ours: `${oursLost.lost} of ${oursLost.appended} (${oursLost.duplicated} twice)`,
      emmett: `${emmettLost.lost} of ${emmettLost.appended} (${emmettLost.duplicated} twice)`,
      target: 'ours 0',
    });
    return rows;
  } finally {
    await emmett.close().catch(() => {});
    await raw.end();
    await database.close();
    await scratch.drop();
  }
}

async function fillTo(pool: pg.Pool, table: string, count: number, step: () => Promise<number>): Promise<void> {
  const current = async () => Number((await pool.query(`select count(*) as n from ${table}`)).rows[0].n);
  while ((await current()) < count) await step();
}
