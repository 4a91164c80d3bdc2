import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseTargets, startTestRuntime, type TestRuntime } from '../support/test-runtime.ts';
import { createTestUser, type TestUser } from '../support/users.ts';

/** Ids an attacker or a broken client puts in a path, percent-encoded as a client would send them. */
const BAD_IDS: readonly (readonly [string, string])[] = [
  ['a NUL byte', 'a%00b'],
  ['a lone surrogate (malformed UTF-8)', 'a%ED%A0%80b'],
  ['a lone surrogate as %uD800', '%uD800'],
  ['a quote and SQL', "x'%3B%20DROP%20TABLE%20runs%3B--"],
  ['400 characters', 'x'.repeat(400)],
  ['a dot segment', '..'],
  ['an emoji', '%F0%9F%8F%83'],
  ['a huge number', '99999999999999999999999999999'],
];

// Issue 10, item 5: a NUL byte in a path id answered 500 on 19 routes. Every route of the app with a path parameter
// (read from the app's own route list, so a new route is covered the day it is added) must answer a 4xx to a bad
// id, for the signed-in user, never a 5xx.
describe.each(databaseTargets())('bad ids in every path on %s', (target) => {
  let rt: TestRuntime;
  let user: TestUser;

  beforeAll(async () => {
    rt = await startTestRuntime(target, { now: '2026-11-18T12:00:00Z' });
    user = await createTestUser(rt, 'pathfinder');
  }, 120_000);
  afterAll(() => rt?.close());

  const routesWithIds = () => [
    ...new Map(
      rt.app.routes.filter((r) => r.method !== 'ALL' && r.path.includes('/:')).map((r) => [`${r.method} ${r.path}`, r]),
    ).values(),
  ];

  it('the route list has the routes the issue named (and more)', () => {
    const names = routesWithIds().map((r) => `${r.method} ${r.path}`);
    expect(names.length).toBeGreaterThanOrEqual(19);
    for (const route of ['GET /goals/:id', 'PATCH /runs/:id', 'GET /groups/:id/recap', 'GET /stakes/:id']) {
      expect(names).toContain(route);
    }
  });

  it.each(BAD_IDS)('%s in any {id} answers a 4xx, never a 5xx', async (_label, bad) => {
    const failures: string[] = [];
    for (const route of routesWithIds()) {
      const path = route.path.replace(/:[A-Za-z]+/g, bad);
      const body = route.method === 'GET' ? undefined : {};
      const res = await rt.request(route.method, path, { token: user.token, ...(body ? { body } : {}) });
      if (res.status < 400 || res.status >= 500)
        failures.push(`${route.method} ${path} → ${res.status} ${res.text.slice(0, 80)}`);
    }
    expect(failures).toEqual([]);
  });

  it('a NUL byte answers 400 naming the path (GoTrue shape under /auth/v1), a malformed id names the id rule', async () => {
    const product = await rt.request('GET', '/goals/a%00b', { token: user.token });
    expect(product.status).toBe(400);
    expect(product.body.error).toBe('path: must not contain NUL characters or unpaired UTF-16 surrogates');
    const quote = await rt.request('DELETE', "/runs/x'%3B--", { token: user.token });
    expect(quote.status).toBe(400);
    expect(quote.body.error).toBe('id: must be letters, digits and _ . : - only (at most 200 characters)');
    const auth = await rt.request('DELETE', '/auth/v1/factors/a%00b', { token: user.token });
    expect(auth.status).toBe(400);
    expect(auth.body.code).toBe('validation_failed');
  });

  it('a well-formed id that is not yours answers 404 as before', async () => {
    const res = await rt.request('GET', '/goals/2b1c6a52-5b7e-4c35-9f3f-0b6d7d3b4c11', { token: user.token });
    expect(res.status).toBe(404);
    expect(res.body.error).toBe('Goal not found');
  });
});
