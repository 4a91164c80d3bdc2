import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseTargets, startTestRuntime, type TestResponse, type TestRuntime } from '../support/test-runtime.ts';
import { createTestUser, runBody, settle, type TestUser } from '../support/users.ts';

/** Rejects when `work` has not settled within `ms` (a bound, not a measurement). */
function within<T>(ms: number, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

const UNSTORABLE = 'must not contain NUL characters or unpaired UTF-16 surrogates';

// Issue 10, item 1: each of these was accepted, appended, and stopped the runs projection for good, so every later
// write of every user answered 500 after 5 s. Each must now be refused at the edge with nothing stored, and the
// product must go on: another user's run saves at once.
describe.each(databaseTargets())('poison input on %s', (target) => {
  let rt: TestRuntime;
  let mallory: TestUser;
  let victim: TestUser;
  let ownRunId: string;
  let victimRuns = 0;

  beforeAll(async () => {
    rt = await startTestRuntime(target, { now: '2026-11-18T12:00:00Z' });
    mallory = await createTestUser(rt, 'mallory');
    victim = await createTestUser(rt, 'victim');
    const own = await rt.request('POST', '/runs', {
      token: mallory.token,
      body: runBody('2026-11-18T06:00:00Z', 1, 'easy'),
    });
    expect(own.status).toBe(201);
    ownRunId = own.body.data.id;
  }, 120_000);
  afterAll(() => rt?.close());

  /** Sends the poison, checks it was refused with nothing appended, then checks another user's write goes through. */
  async function refusedAndTheWorldGoesOn(send: () => Promise<TestResponse>): Promise<TestResponse> {
    // The process managers append after every saved run (XP, goal progress, feed): let them finish the last one, so
    // the head can only move if the poison got in.
    await settle(rt);
    const head = await rt.store.headPosition({ committed: true });
    const res = await send();
    expect(res.status, res.text).toBeGreaterThanOrEqual(400);
    expect(res.status, res.text).toBeLessThan(500);
    expect(await rt.store.headPosition({ committed: true })).toEqual(head);
    victimRuns += 1;
    const started = new Date(Date.parse('2026-11-17T06:00:00Z') + victimRuns * 3_600_000).toISOString();
    const next = await within(3_000, rt.request('POST', '/runs', { token: victim.token, body: runBody(started, 1) }));
    expect(next.status, next.text).toBe(201);
    const listed = await rt.request('GET', '/runs?limit=100', { token: victim.token });
    expect(listed.body.data).toHaveLength(victimRuns);
    return res;
  }

  it('POST /runs with duration_sec 2147483648 (past the integer column) answers 400', async () => {
    const body = { ...runBody('2026-11-18T07:00:00Z', 1), duration_sec: 2_147_483_648 };
    const res = await refusedAndTheWorldGoesOn(() => rt.request('POST', '/runs', { token: mallory.token, body }));
    expect(res.body.error).toBe('duration_sec must be a number from 0 to 172800 (48 hours)');
  });

  it('POST /runs with a NUL character in the notes answers 400 naming the field', async () => {
    const body = runBody('2026-11-18T07:00:00Z', 1, 'a\u0000b');
    const res = await refusedAndTheWorldGoesOn(() => rt.request('POST', '/runs', { token: mallory.token, body }));
    expect(res.body.error).toBe(`notes: ${UNSTORABLE}`);
  });

  it('POST /runs with a lone surrogate \\ud800 in the notes answers 400 naming the field', async () => {
    const body = runBody('2026-11-18T07:00:00Z', 1, 'a\ud800b');
    const res = await refusedAndTheWorldGoesOn(() => rt.request('POST', '/runs', { token: mallory.token, body }));
    expect(res.body.error).toBe(`notes: ${UNSTORABLE}`);
  });

  it('PATCH /runs/{id} with {"notes":"a\\u0000b"} answers 400 and keeps the notes', async () => {
    const res = await refusedAndTheWorldGoesOn(() =>
      rt.request('PATCH', `/runs/${ownRunId}`, { token: mallory.token, body: { notes: 'a\u0000b' } }),
    );
    expect(res.body.error).toBe(`notes: ${UNSTORABLE}`);
    const list = await rt.request('GET', '/runs', { token: mallory.token });
    expect(list.body.data.find((r: { id: string }) => r.id === ownRunId).notes).toBe('easy');
  });

  it('POST /runs/gps/finish with duration_sec 1e10 answers 400', async () => {
    expect((await rt.request('POST', '/runs/gps/start', { token: mallory.token })).status).toBe(201);
    // The session runs for the track's six minutes before the runner stops (a finish never outlasts its session).
    const { gps_data } = runBody('2026-11-18T12:00:00Z', 1);
    rt.clock.advance(360_000);
    const res = await refusedAndTheWorldGoesOn(() =>
      rt.request('POST', '/runs/gps/finish', {
        token: mallory.token,
        body: { positions: gps_data.positions, duration_sec: 1e10 },
      }),
    );
    expect(res.body.error).toBe('duration_sec must be a number from 0 to 172800 (48 hours)');
    // The session is still open: the runner can finish it with sane figures.
    const finished = await rt.request('POST', '/runs/gps/finish', {
      token: mallory.token,
      body: { positions: gps_data.positions, duration_sec: 360 },
    });
    expect(finished.status, finished.text).toBe(201);
  });

  it('a raw NUL byte in the JSON text (not escaped) answers 400 as bad JSON', async () => {
    const body = JSON.stringify(runBody('2026-11-18T07:00:00Z', 1, 'x')).replace('"x"', '"x\u0000y"');
    const res = await refusedAndTheWorldGoesOn(() => rt.request('POST', '/runs', { token: mallory.token, body }));
    expect(res.body.error).toBe('Request body must be valid JSON');
  });
});
