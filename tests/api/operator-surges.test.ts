import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseTargets, startTestRuntime, type TestRuntime } from '../support/test-runtime.ts';

const TOKEN = 'operator-token-0123456789abcdef-0123456789abcdef';
const PATH = '/api/operator/surges';

/**
 * Issue 26, item 13: the operator's surge schedule on a running server, behind OPERATOR_TOKEN, for `npm run surge`
 * while `npm start` holds the embedded database. The clock: Saturday 2026-11-28 08:00 UTC.
 */
describe.each(databaseTargets())('operator surge routes on %s', (target) => {
  let rt: TestRuntime;
  const operator = (method: string, path: string, body?: unknown, token: string | null = TOKEN) =>
    rt.request(method, path, {
      ...(token === null ? {} : { headers: { authorization: `Bearer ${token}` } }),
      ...(body === undefined ? {} : { body }),
    });

  beforeAll(async () => {
    rt = await startTestRuntime(target, { now: '2026-11-28T08:00:00Z', config: { OPERATOR_TOKEN: TOKEN } });
  }, 60_000);
  afterAll(() => rt?.close());

  it('without a token: 401; with a wrong one (shorter, longer, or one character off): 403; nothing scheduled', async () => {
    const body = { multiplier: 2, start: '2026-11-28T09:00:00Z', hours: 3 };
    const missing = await operator('POST', PATH, body, null);
    expect(missing.status).toBe(401);
    expect(missing.body.error).toBe('Operator token required (Authorization: Bearer <OPERATOR_TOKEN>)');
    for (const wrong of ['x', `${TOKEN}x`, `${TOKEN.slice(0, -1)}X`]) {
      const res = await operator('POST', PATH, body, wrong);
      expect(res.status, wrong).toBe(403);
      expect(res.body.error).toBe('Wrong operator token');
    }
    expect((await operator('GET', PATH, undefined, 'nope')).status).toBe(403);
    expect((await operator('DELETE', `${PATH}/some-id`, undefined, null)).status).toBe(401);
    expect((await rt.request('GET', '/surge/upcoming')).body.data).toEqual([]);
    expect((await operator('GET', PATH)).body.data).toEqual([]);
  });

  it.each([
    [{ multiplier: 1, start: '2026-11-28T09:00:00Z', hours: 3 }, 'multiplier: must be greater than 1'],
    [{ multiplier: '2', start: '2026-11-28T09:00:00Z', hours: 3 }, 'multiplier: must be a number'],
    [{ multiplier: 2, start: 'tomorrow', hours: 3 }, 'start: must be an ISO instant such as 2026-11-28T09:00:00Z'],
    [{ multiplier: 2, start: '2026-11-28T09:00:00Z', hours: 0 }, 'hours: must be more than 0'],
    [{ multiplier: 2, start: '2026-11-28T09:00:00Z', hours: 73 }, 'hours: must be at most 72'],
    [{ multiplier: 2, start: '2026-11-28T09:00:00Z' }, 'hours: must be a number'],
  ])('refuses bad input %# with a 400 naming the field', async (body, message) => {
    const res = await operator('POST', PATH, body);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe(message);
  });

  it('a good token schedules a surge that GET /surge/upcoming shows at once; an overlap is a 409, a past start a 400', async () => {
    const res = await operator('POST', PATH, { multiplier: 2, start: '2026-11-28T09:00:00Z', hours: 3 });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      status: 'scheduled',
      xp_multiplier: 2,
      start_time: '2026-11-28T09:00:00Z',
      end_time: '2026-11-28T12:00:00Z',
    });
    const upcoming = await rt.request('GET', '/surge/upcoming');
    expect(upcoming.body.data).toMatchObject([
      {
        id: res.body.data.id,
        xp_multiplier: 2,
        start_time: '2026-11-28T09:00:00.000Z',
        end_time: '2026-11-28T12:00:00.000Z',
      },
    ]);
    const overlap = await operator('POST', PATH, { multiplier: 3, start: '2026-11-28T11:00:00Z', hours: 2 });
    expect(overlap.status).toBe(409);
    expect(overlap.body.error).toBe('Surge overlaps another surge');
    const past = await operator('POST', PATH, { multiplier: 2, start: '2026-11-28T07:00:00Z', hours: 1 });
    expect(past.status).toBe(400);
    expect(past.body.error).toBe('Surge cannot start in the past');
    const listed = await operator('GET', PATH);
    expect(listed.body.data.map((s: { id: string }) => s.id)).toEqual([res.body.data.id]);
  });

  it('cancels a surge that has not started (gone from /surge/upcoming); an unknown id is a 404', async () => {
    const [surge] = (await operator('GET', PATH)).body.data as { id: string }[];
    const canceled = await operator('DELETE', `${PATH}/${surge!.id}`);
    expect(canceled.status).toBe(200);
    expect(canceled.body.data).toMatchObject({ id: surge!.id, status: 'canceled' });
    expect((await rt.request('GET', '/surge/upcoming')).body.data).toEqual([]);
    expect((await operator('DELETE', `${PATH}/no-such-surge`)).status).toBe(404);
  });
});

describe('operator surge routes on a server without OPERATOR_TOKEN', () => {
  let rt: TestRuntime;
  beforeAll(async () => {
    rt = await startTestRuntime('pglite', { workers: false });
  }, 60_000);
  afterAll(() => rt?.close());

  it('refuses every operator route with 403, whatever the token', async () => {
    const headers = { authorization: `Bearer ${TOKEN}` };
    const body = { multiplier: 2, start: '2026-11-28T09:00:00Z', hours: 3 };
    for (const [method, path] of [
      ['POST', PATH],
      ['GET', PATH],
      ['DELETE', `${PATH}/x`],
    ] as const) {
      const res = await rt.request(method, path, { headers, ...(method === 'POST' ? { body } : {}) });
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.body.error).toBe('Operator routes are off: the server has no OPERATOR_TOKEN');
    }
  });
});
