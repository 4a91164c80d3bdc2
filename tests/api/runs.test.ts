import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseTargets, startTestRuntime, type TestRuntime } from '../support/test-runtime.ts';
import { createTestUser, runBody, type TestUser } from '../support/users.ts';

const TOO_SHORT =
  'Unable to save run. The run may be too short (minimum 60 seconds) or have insufficient GPS data (minimum 2 positions).';

describe.each(databaseTargets())('runs API on %s', (target) => {
  let runtime: TestRuntime;
  let alice: TestUser;
  let bob: TestUser;
  const as = (user: TestUser) => (method: string, path: string, body?: unknown) =>
    runtime.request(method, path, { token: user.token, ...(body === undefined ? {} : { body }) });

  beforeAll(async () => {
    runtime = await startTestRuntime(target, { now: '2026-11-18T12:00:00Z' });
    alice = await createTestUser(runtime, 'alice', 'Europe/London');
    bob = await createTestUser(runtime, 'bob');
  }, 60_000);
  afterAll(() => runtime?.close());

  it('requires a bearer token', async () => {
    expect((await runtime.request('GET', '/runs')).status).toBe(401);
  });

  it('logs a GPS run with its verdict and the goal it moved', async () => {
    await as(alice)('POST', '/goals', { type: 'distance', target_value: 10 });
    const res = await as(alice)('POST', '/runs', runBody('2026-11-18T11:00:00Z', 5, 'easy'));
    expect(res.status).toBe(201);
    expect(res.body.success).toBe(true);
    expect(res.body.data).toMatchObject({
      started_at: '2026-11-18T11:00:00.000Z',
      distance_km: 5,
      duration_sec: 1800,
      pace_sec_per_km: 360,
      source: 'gps',
      notes: 'easy',
      verification: {
        verdict: 'verified',
        reasons: [],
        policy_version: 2,
        claimed_distance_km: 5,
        stake_distance_km: 5,
        xp_distance_km: 5,
        trusted_distance_km: 5,
        excluded: [],
        counted_instead: null,
        summary: 'Counted all 5.00 km toward your goal',
      },
    });
    expect(res.body.goal).toMatchObject({ progress: 5, percentage: 50 });
  });

  it('recomputes the distance from the track, not from the client figure', async () => {
    const body = { ...runBody('2026-11-16T08:00:00Z', 1), distance_km: 42 };
    const res = await as(alice)('POST', '/runs', body);
    expect(res.body.data.distance_km).toBe(1);
  });

  it.each([
    [{ ...runBody('2026-11-16T09:00:00Z', 1), duration_sec: 59 }, TOO_SHORT],
    [{ ...runBody('2026-11-16T09:00:00Z', 1), gps_data: { positions: [] } }, TOO_SHORT],
    [{ ...runBody('2026-11-16T09:00:00Z', 1), started_at: 'yesterday' }, 'started_at must be an ISO date-time'],
    [{ ...runBody('2026-11-20T09:00:00Z', 1) }, 'A run cannot start in the future'],
    [{ ...runBody('2026-11-16T09:00:00Z', 1), notes: 'x'.repeat(1001) }, 'Notes must be at most 1000 characters'],
  ])('refuses a bad run (%#) with its message', async (body, message) => {
    const res = await as(alice)('POST', '/runs', body);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe(message);
  });

  it('pages own runs newest first with a stable cursor, and filters by since', async () => {
    await as(alice)('POST', '/runs', runBody('2026-11-15T08:00:00Z', 2));
    const first = await as(alice)('GET', '/runs?limit=2');
    expect(first.status).toBe(200);
    expect(first.body.data.map((r: { started_at: string }) => r.started_at)).toEqual([
      '2026-11-18T11:00:00.000Z',
      '2026-11-16T08:00:00.000Z',
    ]);
    expect(first.body.next_cursor).toBeTypeOf('string');
    const second = await as(alice)('GET', `/runs?limit=2&cursor=${first.body.next_cursor}`);
    expect(second.body.data.map((r: { started_at: string }) => r.started_at)).toEqual(['2026-11-15T08:00:00.000Z']);
    expect(second.body.next_cursor).toBeNull();
    const recent = await as(alice)('GET', `/runs?limit=100&since=${encodeURIComponent('2026-11-16T00:00:00Z')}`);
    expect(recent.body.data).toHaveLength(2);
    expect((await as(bob)('GET', '/runs')).body.data).toEqual([]);
  });

  it.each([
    ['/runs?limit=0', 'limit must be a whole number from 1 to 100'],
    ['/runs?limit=101', 'limit must be a whole number from 1 to 100'],
    ['/runs?cursor=garbage', 'Invalid cursor'],
    ['/runs?since=last-week', 'since must be an ISO date-time'],
  ])('refuses the query %s', async (path, message) => {
    const res = await as(alice)('GET', path);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe(message);
  });

  it('edits notes and deletes a run; another user gets 404', async () => {
    const run = (await as(alice)('POST', '/runs', runBody('2026-11-18T07:00:00Z', 3))).body.data;
    for (const [method, body] of [
      ['PATCH', { notes: 'mine now' }],
      ['DELETE', undefined],
    ] as const) {
      const res = await as(bob)(method, `/runs/${run.id}`, body);
      expect(res.status).toBe(404);
      expect(res.body.error).toBe('Run not found');
    }
    const bad = await as(alice)('PATCH', `/runs/${run.id}`, { notes: 'x'.repeat(1001) });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('Notes must be at most 1000 characters');
    const edited = await as(alice)('PATCH', `/runs/${run.id}`, { notes: 'tempo' });
    expect(edited.status).toBe(200);
    expect(edited.body.data.notes).toBe('tempo');
    expect((await as(alice)('GET', '/goals/current')).body.data.progress).toBe(9);
    const deleted = await as(alice)('DELETE', `/runs/${run.id}`);
    expect(deleted.body).toEqual({ success: true, data: { id: run.id, deleted: true } });
    expect((await as(alice)('GET', '/goals/current')).body.data.progress).toBe(6);
    const list = await as(alice)('GET', '/runs?limit=100');
    expect(list.body.data.map((r: { id: string }) => r.id)).not.toContain(run.id);
    expect((await as(alice)('DELETE', `/runs/${run.id}`)).status).toBe(404);
  });

  it('GET /runs/{id}: the run with its GPS track for the map; another user gets 404', async () => {
    const body = runBody('2026-11-13T07:00:00Z', 2);
    const run = (await as(alice)('POST', '/runs', body)).body.data;
    const one = await as(alice)('GET', `/runs/${run.id}`);
    expect(one.status).toBe(200);
    expect(one.body.data).toMatchObject({ id: run.id, distance_km: run.distance_km, verification: run.verification });
    const fixes = one.body.data.gps_data.positions;
    expect(fixes).toHaveLength(body.gps_data.positions.length);
    expect(fixes[0]).toMatchObject({
      latitude: body.gps_data.positions[0]!.latitude,
      longitude: body.gps_data.positions[0]!.longitude,
    });
    const theirs = await as(bob)('GET', `/runs/${run.id}`);
    expect(theirs.status).toBe(404);
    expect(theirs.body.error).toBe('Run not found');
    expect((await as(alice)('GET', '/runs/x%00y')).status).toBe(400);
    await as(alice)('DELETE', `/runs/${run.id}`);
    expect((await as(alice)('GET', `/runs/${run.id}`)).status).toBe(404);
  });

  it('PATCH with {} leaves the notes as they are; explicit null clears them', async () => {
    const run = (await as(alice)('POST', '/runs', runBody('2026-11-14T07:00:00Z', 1, 'keep me'))).body.data;
    const empty = await as(alice)('PATCH', `/runs/${run.id}`, {});
    expect(empty.status).toBe(200);
    expect(empty.body.data.notes).toBe('keep me');
    const noBody = await as(alice)('PATCH', `/runs/${run.id}`);
    expect(noBody.body.data.notes).toBe('keep me');
    expect((await as(bob)('PATCH', `/runs/${run.id}`, {})).status).toBe(404);
    const cleared = await as(alice)('PATCH', `/runs/${run.id}`, { notes: null });
    expect(cleared.body.data.notes).toBeNull();
    await as(alice)('DELETE', `/runs/${run.id}`);
  });

  describe('GPS tracking sessions', () => {
    it('starts once, refuses a second start, finishes into a run, and a repeated finish returns the same run', async () => {
      runtime.clock.set('2026-11-18T12:00:00Z');
      const start = await as(bob)('POST', '/runs/gps/start');
      expect(start.status).toBe(201);
      const sessionId = start.body.data.session_id;
      expect(start.body.data.started_at).toBe('2026-11-18T12:00:00Z');
      const again = await as(bob)('POST', '/runs/gps/start', {});
      expect(again.status).toBe(409);
      expect(again.body.error).toBe('Tracking is already active');
      // The app was killed; the relaunched app finishes with the positions it kept, 30 minutes later.
      runtime.clock.set('2026-11-18T12:30:00Z');
      const { gps_data } = runBody('2026-11-18T12:00:00Z', 5);
      const finish = await as(bob)('POST', '/runs/gps/finish', {
        session_id: sessionId,
        positions: gps_data.positions,
      });
      expect(finish.status).toBe(201);
      // The run is named by its recording (the same track from another session or an upload is this run).
      expect(finish.body.data.id).not.toBe(sessionId);
      expect(finish.body.data).toMatchObject({
        started_at: '2026-11-18T12:00:00.000Z',
        duration_sec: 1800,
        distance_km: 5,
      });
      const repeat = await as(bob)('POST', '/runs/gps/finish', {
        session_id: sessionId,
        positions: gps_data.positions,
      });
      expect(repeat.body.data.id).toBe(finish.body.data.id);
      expect((await as(bob)('GET', '/runs')).body.data).toHaveLength(1);
    });

    it('refuses a finish without a session, and a too-short run ends the session saving nothing', async () => {
      const none = await as(bob)('POST', '/runs/gps/finish', { positions: [] });
      expect(none.status).toBe(409);
      expect(none.body.error).toBe('No GPS tracking is active');
      await as(bob)('POST', '/runs/gps/start');
      runtime.clock.advance(30_000);
      const short = await as(bob)('POST', '/runs/gps/finish', { positions: [] });
      expect(short.status).toBe(400);
      expect(short.body.error).toBe(TOO_SHORT);
      expect((await as(bob)('POST', '/runs/gps/start')).status).toBe(201);
      const discarded = await as(bob)('POST', '/runs/gps/finish', { discard: true });
      expect(discarded.body).toEqual({ success: true, data: null, goal: null });
      expect((await as(bob)('GET', '/runs')).body.data).toHaveLength(1);
    });

    it('takes uploads only for the open session of the signed-in user, and refuses bad ones with 4xx', async () => {
      const start = await as(alice)('POST', '/runs/gps/start');
      expect(start.status).toBe(201);
      const sessionId = start.body.data.session_id;
      const fixes = runBody(runtime.clock.now().toISOString(), 1).gps_data.positions.slice(0, 3);
      const ok = await as(alice)('POST', '/runs/gps/positions', { session_id: sessionId, positions: fixes });
      expect(ok.status).toBe(200);
      expect(ok.body.data).toEqual({ session_id: sessionId, received: 3 });
      const someoneElse = await as(bob)('POST', '/runs/gps/positions', { session_id: sessionId, positions: fixes });
      expect(someoneElse.status).toBe(409);
      expect(someoneElse.body.error).toBe('No GPS tracking is active');
      const badId = await as(alice)('POST', '/runs/gps/positions', { session_id: 'x\u0000', positions: fixes });
      expect(badId.status).toBe(400);
      const tooMany = Array.from({ length: 1001 }, () => fixes[0]);
      expect(
        (await as(alice)('POST', '/runs/gps/positions', { session_id: sessionId, positions: tooMany })).status,
      ).toBe(400);
      await as(alice)('POST', '/runs/gps/finish', { session_id: sessionId, discard: true });
      const after = await as(alice)('POST', '/runs/gps/positions', { session_id: sessionId, positions: fixes });
      expect(after.status).toBe(409);
    });

    it('refuses a bad finish body with 400', async () => {
      const res = await as(bob)('POST', '/runs/gps/finish', {
        positions: [{ latitude: 200, longitude: 0, timestamp: 1 }],
      });
      expect(res.status).toBe(400);
      expect(res.body.error).toBeTypeOf('string');
    });
  });
});
