import { randomUUID } from 'node:crypto';
import { Temporal } from 'temporal-polyfill';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deterministicUuid } from '../../app-server/commands/deterministic-uuid.ts';
import { actorMetadata } from '../../app-server/commands/event-metadata.ts';
import { executeCommand } from '../../app-server/commands/execute-command.ts';
import { runDecider } from '../../domain/run/decide.ts';
import { databaseTargets, startTestRuntime, type TestRuntime } from '../support/test-runtime.ts';
import { userRequests } from '../support/user-requests.ts';
import { createTestUser, freshToken, runBody, settle, type TestUser } from '../support/users.ts';

const RUN_DELETED =
  'You deleted the run saved from this recording, so it is not saved again. Record a new run instead.';

// "Trust by construction", item 9: the same recording twice is one run. A run made from a GPS track is named by the
// track's fingerprint (app-server/commands/runs/recording-id.ts), so copies of one recording — in parallel, later,
// with or without an Idempotency-Key, by upload or by a tracking session — meet on one stream and answer with the run
// saved first (201, as an Idempotency-Key retry answers).
describe.each(databaseTargets())('the same recording is one run, on %s', (target) => {
  let rt: TestRuntime;
  let ana: TestUser;
  let ben: TestUser;

  const { post, runsOf } = userRequests(() => rt);
  const progressOf = async (user: TestUser) =>
    (await rt.request('GET', '/goals/current', { token: user.token })).body.data.progress;

  // Posted at 12:00 for a run that ended at 07:30: one body, sent as a client would send it.
  const body = runBody('2026-11-17T07:00:00Z', 5);

  beforeAll(async () => {
    rt = await startTestRuntime(target, { now: '2026-11-18T12:00:00Z' });
    ana = await createTestUser(rt, 'ana');
    ben = await createTestUser(rt, 'ben');
    expect((await post(ana, '/goals', { type: 'distance', target_value: 100 })).status).toBe(201);
    expect((await post(ben, '/goals', { type: 'distance', target_value: 100 })).status).toBe(201);
  }, 120_000);
  afterAll(() => rt?.close());

  it('the same body 10 times at once without a key: one run, every answer 201 with its id, counted once', async () => {
    const answers = await Promise.all(Array.from({ length: 10 }, () => post(ana, '/runs', body)));
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(201));
    const ids = new Set(answers.map((a) => a.body.data.id));
    expect(ids.size).toBe(1);
    const [runId] = [...ids];
    expect((await runsOf(ana)).map((r) => r.id)).toEqual([runId]);
    expect((await rt.store.readStream(`run-${runId}`)).map((e) => e.type)).toEqual(['RunRecorded']);
    await settle(rt);
    expect(await progressOf(ana)).toBe(5);
  });

  it('sent again later (without a key, then with a new one, as an offline queue would): the same run, still one', async () => {
    const [saved] = await runsOf(ana);
    rt.clock.advance(3 * 3600_000);
    ana = await freshToken(rt, ana);
    ben = await freshToken(rt, ben);
    const later = await post(ana, '/runs', body);
    expect(later.status).toBe(201);
    expect(later.body.data.id).toBe(saved!.id);
    // Whatever else the body says (notes, the client's distance), the track is the recording.
    const keyed = await post(ana, '/runs', { ...body, notes: 'synced at last', distance_km: 4.9 }, randomUUID());
    expect(keyed.status).toBe(201);
    expect(keyed.body.data.id).toBe(saved!.id);
    expect(keyed.body.data.notes).toBeNull();
    expect(await runsOf(ana)).toHaveLength(1);
    await settle(rt);
    expect(await progressOf(ana)).toBe(5);
  });

  it('sent again with another start (a week earlier, where there is no goal): answered as the run saved first, goal and all', async () => {
    // The run as the runs page lists it, every field.
    const saved = (await rt.request('GET', '/runs?limit=100', { token: ana.token })).body.data[0];
    const started = Date.parse(body.started_at);
    const earlier = { ...body, started_at: new Date(started - 7 * 86_400_000).toISOString() };
    const again = await post(ana, '/runs', earlier);
    expect(again.status).toBe(201);
    // The answer is the saved run as the runs page shows it: its own start, and the sentence about its own week's goal
    // (POST /runs reads the weeks of the start it was sent with alongside the run; a run found elsewhere is read again).
    expect(again.body.data).toEqual(saved);
    expect(again.body.data.started_at).toBe(new Date(started).toISOString());
    expect(again.body.data.verification.summary).toBe(saved.verification.summary);
  });

  it('a different recording (one fix moved) is a second run', async () => {
    const [saved] = await runsOf(ana);
    const positions = body.gps_data.positions.map((p, i) => (i === 3 ? { ...p, latitude: p.latitude + 0.00001 } : p));
    const moved = await post(ana, '/runs', { ...body, gps_data: { positions } });
    expect(moved.status).toBe(201);
    expect(moved.body.data.id).not.toBe(saved!.id);
    expect(await runsOf(ana)).toHaveLength(2);
    await rt.request('DELETE', `/runs/${moved.body.data.id}`, { token: ana.token });
  });

  it('another user sending the same track gets their own run (recordings are per user)', async () => {
    const [anas] = await runsOf(ana);
    const theirs = await post(ben, '/runs', body);
    expect(theirs.status).toBe(201);
    expect(theirs.body.data.id).not.toBe(anas!.id);
    expect(theirs.body.data.user_id).toBe(ben.id);
    expect((await runsOf(ben)).map((r) => r.id)).toEqual([theirs.body.data.id]);
    expect((await runsOf(ana)).map((r) => r.id)).toEqual([anas!.id]);
  });

  it('a tracking session finishing with a recording already saved ends on that run, not a second one', async () => {
    const [saved] = await runsOf(ana);
    const start = await post(ana, '/runs/gps/start', {});
    expect(start.status).toBe(201);
    rt.clock.advance(60_000);
    const finish = await post(ana, '/runs/gps/finish', {
      session_id: start.body.data.session_id,
      positions: body.gps_data.positions,
    });
    expect(finish.status).toBe(201);
    expect(finish.body.data.id).toBe(saved!.id);
    expect(await runsOf(ana)).toHaveLength(1);
    // The session ended: a new one opens.
    const next = await post(ana, '/runs/gps/start', {});
    expect(next.status).toBe(201);
    await post(ana, '/runs/gps/finish', { session_id: next.body.data.session_id, discard: true });
  });

  it('an upload and a session finish of one new recording at once: one run, both answers carry it', async () => {
    const before = (await runsOf(ana)).length;
    const start = await post(ana, '/runs/gps/start', {});
    rt.clock.advance(60_000);
    const fresh = runBody('2026-11-18T09:00:00Z', 2);
    const [uploaded, finished] = await Promise.all([
      post(ana, '/runs', fresh),
      post(ana, '/runs/gps/finish', { session_id: start.body.data.session_id, positions: fresh.gps_data.positions }),
    ]);
    expect([uploaded.status, finished.status]).toEqual([201, 201]);
    expect(finished.body.data.id).toBe(uploaded.body.data.id);
    expect(await runsOf(ana)).toHaveLength(before + 1);
    expect((await rt.store.readStream(`run-${uploaded.body.data.id}`)).map((e) => e.type)).toEqual(['RunRecorded']);
  });

  it('GET /openapi.json says how POST /runs and /runs/gps/finish answer a repeat', async () => {
    const { paths } = (await rt.request('GET', '/openapi.json')).body;
    for (const path of ['/runs', '/runs/gps/finish']) {
      expect(paths[path].post.description).toContain('**201 with the run already saved** (same id)');
      expect(paths[path].post.responses['409']).toBeDefined();
    }
  });

  it('a keyed run saved before runs were named by their recording is found by its key, not saved again', async () => {
    const key = randomUUID();
    const legacy = runBody('2026-11-18T06:00:00Z', 3);
    // What POST /runs with this key stored then: the run under the key's id (idempotency/legacy-keyed-ids.ts).
    const legacyId = deterministicUuid('idempotency-key', ana.id, key, 'id');
    const now = rt.clock.now();
    await executeCommand(
      rt.store,
      runDecider,
      `run-${legacyId}`,
      {
        type: 'LogGpsRun',
        runId: legacyId,
        userId: ana.id,
        startedAt: Temporal.Instant.from(legacy.started_at),
        durationSec: legacy.duration_sec,
        positions: legacy.gps_data.positions,
        notes: null,
        weekSettled: false,
        live: false,
        now: Temporal.Instant.fromEpochMilliseconds(now.getTime()),
      },
      actorMetadata(ana.id, randomUUID(), now),
    );
    await settle(rt);
    const before = (await runsOf(ana)).length;
    const resent = await post(ana, '/runs', legacy, key);
    expect(resent.status).toBe(201);
    expect(resent.body.data.id).toBe(legacyId);
    expect(await runsOf(ana)).toHaveLength(before);
  });

  it('a recording whose run was deleted is not saved again: 409 run_deleted, nothing appended', async () => {
    const theirs = (await runsOf(ben))[0]!;
    expect((await rt.request('DELETE', `/runs/${theirs.id}`, { token: ben.token })).status).toBe(200);
    await settle(rt);
    const head = await rt.store.headPosition({ committed: true });
    const again = await post(ben, '/runs', body);
    expect(again.status).toBe(409);
    expect(again.body.error).toBe(RUN_DELETED);
    expect(await rt.store.headPosition({ committed: true })).toEqual(head);
    expect(await runsOf(ben)).toHaveLength(0);
  });
});
