import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresEventStore } from '../../app-server/adapters/event-store/postgres/postgres-event-store.ts';
import { authClient, lastMail } from '../api/auth-helpers.ts';
import { databaseTargets, startTestRuntime, type TestRuntime } from '../support/test-runtime.ts';
import { createTestUser, runBody, settle } from '../support/users.ts';

const NOW = '2026-11-18T12:00:00Z';

describe.each(databaseTargets())('personal data in events is crypto-shredded on account deletion (%s)', (target) => {
  let runtime: TestRuntime;
  beforeAll(async () => {
    runtime = await startTestRuntime(target, { now: NOW });
  });
  afterAll(async () => runtime.close());

  /** A 2 km GPS run at 10 km/h, started two hours ago, with a note. */
  async function logRun(token: string, notes: string) {
    const body = runBody(new Date(runtime.clock.now().getTime() - 7_200_000).toISOString(), 2, notes);
    const res = await runtime.request('POST', '/runs', { token, body });
    expect(res.status, res.text).toBe(201);
    return { id: res.body.data.id as string, positions: body.gps_data.positions };
  }

  it('keeps GPS tracks and notes encrypted in the log, readable only through the store', async () => {
    const alice = await createTestUser(runtime, 'alice');
    const run = await logRun(alice.token, 'Start at my front door, 12 Elm Street');
    const raw = await createPostgresEventStore(runtime.database).readStream(`run-${run.id}`);
    expect(raw).toHaveLength(1);
    expect(JSON.stringify(raw)).not.toContain('Elm Street');
    expect(JSON.stringify(raw)).not.toContain(String(run.positions[3]!.latitude));
    expect((raw[0]!.data as { positions: unknown }).positions).toHaveProperty('$personal');

    const [recorded] = await runtime.store.readStream(`run-${run.id}`);
    expect((recorded!.data as { notes: string }).notes).toBe('Start at my front door, 12 Elm Street');
    expect((recorded!.data as { positions: unknown[] }).positions).toHaveLength(run.positions.length);
    const list = await runtime.request('GET', '/runs', { token: alice.token });
    expect(list.body.data[0].notes).toBe('Start at my front door, 12 Elm Street');

    // The map is drawn from the log; no read model keeps the fixes in plain text.
    const detail = await runtime.request('GET', `/runs/${run.id}`, { token: alice.token });
    expect(detail.body.data.gps_data.positions[0]).toMatchObject({ latitude: run.positions[0]!.latitude });
    const tables = await sql<{ name: string }>`
      SELECT table_name AS name FROM information_schema.tables
      WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'`.execute(runtime.database.db);
    const latitude = String(run.positions[3]!.latitude);
    for (const { name } of tables.rows) {
      const hits = await sql<{ n: number }>`
        SELECT count(*)::int AS n FROM ${sql.table(name)} AS t WHERE row_to_json(t)::text LIKE ${`%${latitude}%`}`.execute(
        runtime.database.db,
      );
      expect(hits.rows[0]!.n, `${name} holds a fix of the track`).toBe(0);
    }
  });

  it('erases them everywhere once the account is deleted, keeping the facts and other users untouched', async () => {
    const bob = await createTestUser(runtime, 'bob');
    const carol = await createTestUser(runtime, 'carol');
    const bobRun = await logRun(bob.token, 'Bob lives by the park gate');
    await logRun(carol.token, 'Carol note');
    const edited = await runtime.request('PATCH', `/runs/${bobRun.id}`, {
      token: bob.token,
      body: { notes: 'Bob moved to 3 Oak Road' },
    });
    expect(edited.status).toBe(200);

    runtime.clock.advance(61_000);
    await authClient(runtime)('GET', '/auth/v1/reauthenticate', { token: bob.token });
    const nonce = /Your code: (\d{6})/.exec((await lastMail(runtime, bob.email)).text)![1]!;
    expect((await runtime.request('DELETE', '/auth/me', { token: bob.token, body: { nonce } })).status).toBe(200);
    await settle(runtime);

    const events = await runtime.store.readStream(`run-${bobRun.id}`);
    expect(events.map((e) => e.type)).toEqual(['RunRecorded', 'RunNotesEdited']);
    expect(events[0]!.data).toMatchObject({ positions: null, notes: null, userId: bob.id });
    expect((events[0]!.data as { distanceKm: number }).distanceKm).toBeGreaterThan(1.9);
    expect(events[1]!.data).toMatchObject({ notes: null });
    const keys = await sql<{
      n: number;
    }>`SELECT count(*)::int AS n FROM personal_data_keys WHERE subject_id = ${bob.id}`.execute(runtime.database.db);
    expect(keys.rows[0]!.n).toBe(0);

    // The read model never held the track (the map is read from the log, where it is now unreadable).
    const rows = await sql<Record<string, unknown>>`SELECT * FROM runs WHERE user_id = ${bob.id}`.execute(
      runtime.database.db,
    );
    expect(rows.rows).toEqual([expect.objectContaining({ notes: null, distance_km: expect.any(Number) })]);
    expect(Object.keys(rows.rows[0]!)).not.toContain('positions');

    const carolRows = await sql<{ notes: string | null }>`SELECT notes FROM runs WHERE user_id = ${carol.id}`.execute(
      runtime.database.db,
    );
    expect(carolRows.rows).toEqual([{ notes: 'Carol note' }]);

    // A rebuild replays the log after the erasure and must land on the same rows.
    await runtime.projections.rebuild('runs');
    const rebuilt = await sql<{ notes: string | null }>`SELECT notes FROM runs WHERE user_id = ${bob.id}`.execute(
      runtime.database.db,
    );
    expect(rebuilt.rows).toEqual([{ notes: null }]);
  });
  it('shreds why a week was paused (an injury is health data) with the account, and the pauses read model lets go', async () => {
    const dan = await createTestUser(runtime, 'dan');
    const paused = await runtime.request('POST', '/goals/pauses', {
      token: dan.token,
      body: { week_start: '2026-11-30', reason: 'injury' },
    });
    expect(paused.status, paused.text).toBe(201);
    const raw = await createPostgresEventStore(runtime.database).readStream(`user-goals-${dan.id}`);
    const stored = raw.find((e) => e.type === 'WeekPaused')!;
    expect(JSON.stringify(stored.data)).not.toContain('injury');
    expect((stored.data as { reason: unknown }).reason).toHaveProperty('$personal');
    const listed = await runtime.request('GET', '/goals/pauses', { token: dan.token });
    expect(listed.body.data).toEqual([expect.objectContaining({ week_start: '2026-11-30', reason: 'injury' })]);

    const rows = async () =>
      (await sql`SELECT * FROM goal_pauses WHERE user_id = ${dan.id}`.execute(runtime.database.db)).rows;
    expect(await rows()).toEqual([expect.objectContaining({ reason: 'injury' })]);

    runtime.clock.advance(61_000);
    await authClient(runtime)('GET', '/auth/v1/reauthenticate', { token: dan.token });
    const nonce = /Your code: (\d{6})/.exec((await lastMail(runtime, dan.email)).text)![1]!;
    expect((await runtime.request('DELETE', '/auth/me', { token: dan.token, body: { nonce } })).status).toBe(200);
    await settle(runtime);

    const events = await runtime.store.readStream(`user-goals-${dan.id}`);
    expect(events.find((e) => e.type === 'WeekPaused')!.data).toMatchObject({ reason: null, weekStart: '2026-11-30' });
    expect(await rows()).toEqual([]);
    // Replayed after the erasure (a null reason), the read model lands on the same: nothing of dan's.
    await runtime.projections.rebuild('goal-pauses');
    expect(await rows()).toEqual([]);
  });
});
