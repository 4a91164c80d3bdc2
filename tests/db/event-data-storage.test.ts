import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseTargets, startTestRuntime, type TestRuntime } from '../support/test-runtime.ts';
import { createTestUser, runBody } from '../support/users.ts';

/*
 * The log's event data is stored out of line without a compression attempt (migration
 * 2026-11-29-01-event-data-stored-uncompressed): the only large events are runs, made large by their sealed track,
 * which is ciphertext and never compresses. PostgreSQL's attempt cost every append of a run about 0.15 ms for nothing.
 */
describe.each(databaseTargets())('event data is stored without a compression attempt (%s)', (target) => {
  let runtime: TestRuntime;
  beforeAll(async () => {
    runtime = await startTestRuntime(target, { now: '2026-11-18T12:00:00Z' });
  });
  afterAll(async () => runtime.close());

  it('es_events.data is STORAGE EXTERNAL, and a run with a long track is saved whole and read back', async () => {
    const { rows } = await sql<{ storage: string }>`
      SELECT attstorage AS storage FROM pg_attribute
      WHERE attrelid = 'es_events'::regclass AND attname = 'data'`.execute(runtime.database.db);
    expect(rows[0]!.storage).toBe('e');

    const ada = await createTestUser(runtime, 'ada');
    // 20 km: about 240 fixes, a sealed track of several kilobytes, stored out of line.
    const body = runBody('2026-11-17T07:00:00Z', 20);
    const saved = await runtime.request('POST', '/runs', { token: ada.token, body });
    expect(saved.status, saved.text).toBe(201);
    const stored = await sql<{ bytes: number; compression: string | null }>`
      SELECT pg_column_size(data) AS bytes, pg_column_compression(data) AS compression FROM es_events
      WHERE stream_id = ${`run-${saved.body.data.id}`}`.execute(runtime.database.db);
    expect(stored.rows[0]!.bytes).toBeGreaterThan(2_000);
    expect(stored.rows[0]!.compression).toBeNull();
    const detail = await runtime.request('GET', `/runs/${saved.body.data.id}`, { token: ada.token });
    expect(detail.body.data.gps_data.positions).toHaveLength(body.gps_data.positions.length);
  });
});
