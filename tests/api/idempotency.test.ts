import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseTargets, startTestRuntime, type TestRuntime } from '../support/test-runtime.ts';
import { userRequests } from '../support/user-requests.ts';
import { createTestUser, runBody, settle, type TestUser } from '../support/users.ts';

const KEY_REUSED = 'This Idempotency-Key was already used for a different request. Use a new key for a new request.';

// Issue 10, item 4: a client that retries a write (the answer was lost, the network came back) must not create a
// second run. Every creating route takes an Idempotency-Key: the same key answers with the first result and creates
// nothing new, also when the copies arrive in parallel; the same key with another body is a 422.
describe.each(databaseTargets())('Idempotency-Key on %s', (target) => {
  let rt: TestRuntime;
  let ana: TestUser;
  let ben: TestUser;

  const { post, runsOf } = userRequests(() => rt);
  const eventsOf = async (streamId: string) => rt.store.readStream(streamId);

  beforeAll(async () => {
    rt = await startTestRuntime(target, { now: '2026-11-18T12:00:00Z' });
    ana = await createTestUser(rt, 'ana');
    ben = await createTestUser(rt, 'ben');
    expect((await post(ana, '/goals', { type: 'distance', target_value: 100 })).status).toBe(201);
  }, 120_000);
  afterAll(() => rt?.close());

  it('10 identical POST /runs in parallel with one key record one run, and every answer is that run', async () => {
    const key = randomUUID();
    const body = runBody('2026-11-17T07:00:00Z', 5);
    const answers = await Promise.all(Array.from({ length: 10 }, () => post(ana, '/runs', body, key)));
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(201));
    const ids = new Set(answers.map((a) => a.body.data.id));
    expect(ids.size).toBe(1);
    const [runId] = [...ids];
    expect(await runsOf(ana)).toHaveLength(1);
    expect((await eventsOf(`run-${runId}`)).map((e) => e.type)).toEqual(['RunRecorded']);
    // The goal counts it once.
    await settle(rt);
    expect((await rt.request('GET', '/goals/current', { token: ana.token })).body.data.progress).toBe(5);
  });

  it('a retry after the answer was lost gets the first run back (201, same id, same figures)', async () => {
    const key = randomUUID();
    const body = runBody('2026-11-16T07:00:00Z', 3, 'tempo');
    const first = await post(ana, '/runs', body, key);
    const retry = await post(ana, '/runs', body, key);
    expect(first.status).toBe(201);
    expect(retry.status).toBe(201);
    expect(retry.body.data).toEqual(first.body.data);
    expect(await runsOf(ana)).toHaveLength(2);
  });

  it('the same key with another body is a 422 and creates nothing; with another route too', async () => {
    const key = randomUUID();
    expect((await post(ana, '/runs', runBody('2026-11-15T07:00:00Z', 2), key)).status).toBe(201);
    // The process managers' appends after that run (XP, progress, feed) are not what this test is looking for.
    await settle(rt);
    const head = await rt.store.headPosition({ committed: true });
    const other = await post(ana, '/runs', runBody('2026-11-15T09:00:00Z', 2), key);
    expect(other.status).toBe(422);
    expect(other.body.error).toBe(KEY_REUSED);
    const elsewhere = await post(ana, '/groups', { name: 'Same key' }, key);
    expect(elsewhere.status).toBe(422);
    expect(await rt.store.headPosition({ committed: true })).toEqual(head);
    expect(await runsOf(ana)).toHaveLength(3);
  });

  it('keys belong to one user: another user with the same key gets their own run', async () => {
    const key = randomUUID();
    const body = runBody('2026-11-14T07:00:00Z', 1);
    const mine = await post(ana, '/runs', body, key);
    const theirs = await post(ben, '/runs', body, key);
    expect(theirs.status).toBe(201);
    expect(theirs.body.data.id).not.toBe(mine.body.data.id);
    expect(theirs.body.data.user_id).toBe(ben.id);
  });

  it('a malformed key answers 400; a refused body does not use the key up', async () => {
    const bad = await post(ana, '/runs', runBody('2026-11-13T07:00:00Z', 1), 'has spaces in it');
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('Idempotency-Key must be 1 to 255 visible ASCII characters, such as a UUID');
    expect((await post(ana, '/runs', runBody('2026-11-13T07:00:00Z', 1), 'x'.repeat(256))).status).toBe(400);
    const key = randomUUID();
    expect((await post(ana, '/runs', { ...runBody('2026-11-13T07:00:00Z', 1), duration_sec: -1 }, key)).status).toBe(
      400,
    );
    expect((await post(ana, '/runs', runBody('2026-11-13T07:00:00Z', 1), key)).status).toBe(201);
  });

  it('without a key, two identical POST /runs are one run: the recording names it (same-recording.test.ts)', async () => {
    const before = (await runsOf(ben)).length;
    const body = runBody('2026-11-12T07:00:00Z', 1);
    const first = await post(ben, '/runs', body);
    const second = await post(ben, '/runs', body);
    expect([first.status, second.status]).toEqual([201, 201]);
    expect(second.body.data.id).toBe(first.body.data.id);
    expect(await runsOf(ben)).toHaveLength(before + 1);
  });

  it('POST /goals: 5 parallel copies with one key make one goal', async () => {
    const key = randomUUID();
    const body = { type: 'distance', target_value: 20, start: 'next_week' };
    const answers = await Promise.all(Array.from({ length: 5 }, () => post(ben, '/goals', body, key)));
    expect(answers.map((a) => a.status)).toEqual(Array(5).fill(201));
    expect(new Set(answers.map((a) => a.body.data.id)).size).toBe(1);
    const goals = (await rt.request('GET', '/goals', { token: ben.token })).body.goals;
    expect(goals).toHaveLength(1);
  });

  it('POST /groups and POST /groups/join: a retry answers like the first, without a second group or a 409', async () => {
    const createKey = randomUUID();
    const created = await Promise.all([1, 2, 3].map(() => post(ana, '/groups', { name: 'Dawn Patrol' }, createKey)));
    expect(created.map((a) => a.status)).toEqual([201, 201, 201]);
    expect(new Set(created.map((a) => a.body.data.id)).size).toBe(1);
    expect((await rt.request('GET', '/groups', { token: ana.token })).body.groups).toHaveLength(1);
    const code = created[0]!.body.data.invite_code;
    const joinKey = randomUUID();
    const joins = await Promise.all([1, 2, 3].map(() => post(ben, '/groups/join', { invite_code: code }, joinKey)));
    expect(joins.map((a) => a.status)).toEqual([200, 200, 200]);
    expect(joins.every((a) => a.body.data.id === created[0]!.body.data.id)).toBe(true);
    const joined = (await eventsOf(`group-${created[0]!.body.data.id}`)).filter((e) => e.type === 'MemberJoined');
    expect(joined).toHaveLength(1);
    // Without the key a second join is what it always was.
    expect((await post(ben, '/groups/join', { invite_code: code })).status).toBe(409);
  });

  it('POST /runs/gps/start: a retry gets the same session instead of "Tracking is already active"', async () => {
    const key = randomUUID();
    const first = await post(ana, '/runs/gps/start', {}, key);
    const retry = await post(ana, '/runs/gps/start', {}, key);
    expect(first.status).toBe(201);
    expect(retry.status).toBe(201);
    expect(retry.body.data).toEqual(first.body.data);
    expect((await post(ana, '/runs/gps/start', {})).status).toBe(409);
    const sessionId = first.body.data.session_id;
    // The session runs for the track's six minutes before the runner stops (a finish never outlasts its session).
    const { gps_data } = runBody(first.body.data.started_at, 1);
    rt.clock.advance(360_000);
    const finishKey = randomUUID();
    const finishBody = { session_id: sessionId, positions: gps_data.positions, duration_sec: 360 };
    const finishes = await Promise.all([1, 2, 3].map(() => post(ana, '/runs/gps/finish', finishBody, finishKey)));
    expect(finishes.map((a) => a.status)).toEqual([201, 201, 201]);
    const runId = finishes[0]!.body.data.id;
    expect(finishes.every((a) => a.body.data.id === runId)).toBe(true);
    expect((await eventsOf(`run-${runId}`)).map((e) => e.type)).toEqual(['RunRecorded']);
  });

  it('POST /feed/{id}/reactions and /notifications/test: a retry answers 201 with the first result', async () => {
    const card = (await rt.request('GET', '/feed', { token: ana.token })).body.data[0];
    expect(card).toBeDefined();
    const key = randomUUID();
    const reacted = await Promise.all(
      [1, 2].map(() => post(ana, `/feed/${card.id}/reactions`, { emoji: 'fire' }, key)),
    );
    expect(reacted.map((a) => a.status)).toEqual([201, 201]);
    expect(reacted[1]!.body.data).toEqual(reacted[0]!.body.data);
    expect((await post(ana, `/feed/${card.id}/reactions`, { emoji: 'fire' })).status).toBe(409);
    const testKey = randomUUID();
    const body = { title: 'Hi', message: 'Once', type: 'ending_soon' };
    const sent = await post(ana, '/notifications/test', body, testKey);
    const again = await post(ana, '/notifications/test', body, testKey);
    expect(again.status).toBe(201);
    expect(again.body.data.id).toBe(sent.body.data.id);
    const history = (await rt.request('GET', '/notifications/history', { token: ana.token })).body.data;
    expect(history.filter((n: { payload: { message: string } }) => n.payload.message === 'Once')).toHaveLength(1);
  });

  it('POST /api/payment/setup-intent: a retry gets the same SetupIntent', async () => {
    const key = randomUUID();
    const first = await post(ben, '/api/payment/setup-intent', {}, key);
    const retry = await post(ben, '/api/payment/setup-intent', {}, key);
    expect(first.status).toBe(200);
    expect(retry.body.setupIntentId).toBe(first.body.setupIntentId);
    const fresh = await post(ben, '/api/payment/setup-intent', {}, randomUUID());
    expect(fresh.body.setupIntentId).not.toBe(first.body.setupIntentId);
  });
});
