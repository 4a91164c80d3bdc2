import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { untilCommittedIsVisible } from '../support/committed-log.ts';
import { databaseTargets, startTestRuntime, type TestRuntime } from '../support/test-runtime.ts';
import { type FakeActivity, FakeStrava, STRAVA_CLIENT_ID, STRAVA_CLIENT_SECRET } from '../support/strava-stand-in.ts';
import { createTestUser, freshToken, settle, type TestUser } from '../support/users.ts';

const CLIENT_ID = STRAVA_CLIENT_ID;
const CLIENT_SECRET = STRAVA_CLIENT_SECRET;
const VERIFY_TOKEN = 'verify-me-please';
const APP_URL = 'http://app.test';
const PUBLIC_URL = 'http://api.test';
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

const ALICE_ATHLETE = 1001;
const BOB_ATHLETE = 2002;
const NOW = Date.parse('2026-11-18T12:00:00Z');

describe.each(databaseTargets())('Strava integration on %s', (target) => {
  let runtime: TestRuntime;
  let strava: FakeStrava;
  let alice: TestUser;
  let bob: TestUser;
  const as = (user: TestUser) => (method: string, path: string, body?: unknown) =>
    runtime.request(method, path, { token: user.token, ...(body === undefined ? {} : { body }) });
  const refreshUsers = async () => {
    [alice, bob] = await Promise.all([freshToken(runtime, alice), freshToken(runtime, bob)]);
  };
  const startState = async (user: TestUser) => {
    const res = await as(user)('GET', '/api/integrations/auth/strava/start');
    expect(res.status).toBe(200);
    return new URL(res.body.authUrl).searchParams.get('state')!;
  };
  const callback = (query: Record<string, string>) =>
    runtime.request('GET', `/api/integrations/strava/callback?${new URLSearchParams(query)}`);
  /** Where the callback sends the browser: an error (`?error=`) or the hand-over to the app (`#code&state&scope`). */
  const handedOver = (res: { status: number; headers: Headers }) => {
    expect(res.status).toBe(302);
    const location = new URL(res.headers.get('location')!);
    expect(`${location.origin}${location.pathname}`).toBe(`${APP_URL}/connected-apps`);
    return Object.fromEntries(new URLSearchParams(location.hash.slice(1)));
  };
  /** What the app does with the hand-over: posts it with the signed-in user's token. */
  const complete = (user: TestUser, body: Record<string, string>) =>
    as(user)('POST', '/api/integrations/auth/strava/complete', body);
  const codeFor = (athleteId: number) => {
    const code = `code-${athleteId}-${Math.random()}`;
    strava.codes.set(code, athleteId);
    return code;
  };
  /** The whole round trip in one browser: start, (consent), callback, completion by the same session. */
  const connect = async (user: TestUser, athleteId: number, scope = 'read,activity:read_all') => {
    const back = handedOver(await callback({ code: codeFor(athleteId), state: await startState(user), scope }));
    return complete(user, back);
  };
  const linkedAthletes = async () =>
    (
      await sql<{ user_id: string; external_user_id: string }>`
        SELECT user_id, external_user_id FROM external_accounts ORDER BY external_user_id`.execute(runtime.database.db)
    ).rows;
  const stravaRuns = async (user: TestUser) =>
    (
      (await as(user)('GET', '/runs?limit=100')).body.data as {
        id: string;
        source: string;
        import_id: string;
        distance_km: number;
        verification: { reasons: string[] };
      }[]
    ).filter((r) => r.source === 'strava');
  // The sync process queues work from events in its own subscription: let it catch up first, as a worker's next
  // tick would find it (on PostgreSQL the subscription can trail the request that appended the event).
  const tick = async () => {
    await settle(runtime);
    await runtime.processes.tick();
    await settle(runtime);
  };
  const webhook = (event: Record<string, unknown>) =>
    runtime.request('POST', '/api/integrations/strava/webhook', {
      body: { subscription_id: 1, event_time: Math.floor(runtime.clock.now().getTime() / 1000), updates: {}, ...event },
    });
  const runActivity = (id: number, startMs: number, extra: Partial<FakeActivity> = {}): FakeActivity => ({
    id,
    athleteId: ALICE_ATHLETE,
    sportType: 'Run',
    startMs,
    distanceM: 5000,
    movingTimeSec: 1800,
    track: true,
    ...extra,
  });

  beforeAll(async () => {
    strava = new FakeStrava();
    await strava.start();
    runtime = await startTestRuntime(target, {
      now: new Date(NOW).toISOString(),
      config: {
        STRAVA_CLIENT_ID: CLIENT_ID,
        STRAVA_CLIENT_SECRET: CLIENT_SECRET,
        STRAVA_WEBHOOK_VERIFY_TOKEN: VERIFY_TOKEN,
        STRAVA_API_URL: strava.url,
        APP_URL,
        PUBLIC_URL,
      },
    });
    strava.clock = runtime.clock;
    alice = await createTestUser(runtime, 'alice');
    bob = await createTestUser(runtime, 'bob');
    // Alice's last 30 days on Strava: 5 runs (one a treadmill VirtualRun) and 100 rides, plus an older run.
    for (const [i, days] of [2, 5, 10, 20, 29].entries()) strava.add(runActivity(10 + i, NOW - days * DAY));
    strava.add(runActivity(20, NOW - 3 * DAY, { sportType: 'VirtualRun', trainer: true, track: false }));
    strava.add(runActivity(21, NOW - 35 * DAY));
    for (let i = 0; i < 100; i++) {
      strava.add({ ...runActivity(1000 + i, NOW - 28 * DAY + i * 6 * HOUR), sportType: 'Ride', distanceM: 30_000 });
    }
    strava.add({ ...runActivity(5000, NOW - 4 * DAY), athleteId: BOB_ATHLETE });
  }, 120_000);
  afterAll(async () => {
    await runtime?.close();
    await strava?.stop();
  });

  it('starts the OAuth round trip with a state bound to the user; the second service is not implemented', async () => {
    const res = await as(alice)('GET', '/api/integrations/auth/strava/start');
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    const url = new URL(res.body.authUrl);
    expect(`${url.origin}${url.pathname}`).toBe(`${strava.url}/oauth/authorize`);
    expect(url.searchParams.get('client_id')).toBe(CLIENT_ID);
    expect(url.searchParams.get('redirect_uri')).toBe(`${PUBLIC_URL}/api/integrations/strava/callback`);
    expect(url.searchParams.get('response_type')).toBe('code');
    expect(url.searchParams.get('scope')?.split(',')).toContain('activity:read_all');
    expect(url.searchParams.get('state')?.length).toBeGreaterThan(20);
    expect(url.searchParams.get('state')).not.toContain(alice.id);

    const garmin = await as(alice)('GET', '/api/integrations/auth/garmin/start');
    expect(garmin.status).toBe(501);
    expect(garmin.body.error).toMatch(/not implemented/i);
    expect((await as(alice)('GET', '/api/integrations/auth/myspace/start')).status).toBe(404);
    expect((await runtime.request('GET', '/api/integrations/auth/strava/start')).status).toBe(401);
  });

  it('sends the browser back with an error for a denied or incomplete return, and hands a complete one to the app', async () => {
    const back = (res: { status: number; headers: Headers }) => {
      expect(res.status).toBe(302);
      return res.headers.get('location');
    };
    const err = (e: string) => `${APP_URL}/connected-apps?error=${e}`;
    const state = await startState(alice);
    const tokenCalls = strava.count('/oauth/token');
    expect(back(await callback({ error: 'access_denied', state }))).toBe(err('access_denied'));
    expect(back(await callback({ error: 'server_error', state }))).toBe(err('callback_failed'));
    expect(back(await callback({ code: 'x', scope: 'activity:read' }))).toBe(err('invalid_state'));
    expect(back(await callback({ state, scope: 'activity:read' }))).toBe(err('invalid_request'));
    expect(back(await callback({ code: 'x'.repeat(600), state, scope: 'activity:read' }))).toBe(err('invalid_request'));
    // A complete return decides nothing (it carries no proof of who is signed in): it goes on to the app, in the
    // fragment, which the browser keeps to itself.
    expect(handedOver(await callback({ code: 'some-code', state, scope: 'read,activity:read' }))).toEqual({
      provider: 'strava',
      code: 'some-code',
      state,
      scope: 'read,activity:read',
    });
    expect(strava.count('/oauth/token')).toBe(tokenCalls); // no code exchanged by the callback
  });

  it("hands a return started in the native shell to the app's deep link, and only a state the shell started", async () => {
    const started = await as(alice)('GET', '/api/integrations/auth/strava/start?return=native');
    expect(started.status).toBe(200);
    const state = new URL(started.body.authUrl).searchParams.get('state')!;
    const code = codeFor(ALICE_ATHLETE);
    const res = await callback({ code, state, scope: 'read,activity:read_all' });
    expect(res.status).toBe(302);
    const location = new URL(res.headers.get('location')!);
    expect(`${location.protocol}//${location.host}${location.pathname}`).toBe('stridestake://connected-apps');
    expect(Object.fromEntries(new URLSearchParams(location.hash.slice(1)))).toEqual({
      provider: 'strava',
      code,
      state,
      scope: 'read,activity:read_all',
    });
    // The destination is ours, not the request's: a forged or a web state goes to the web app; a bad value is web.
    expect(handedOver(await callback({ code: 'x', state: 'forged', scope: 'activity:read' })).state).toBe('forged');
    const webState = await startState(alice);
    expect(handedOver(await callback({ code: 'x', state: webState, scope: 'activity:read' })).state).toBe(webState);
    const odd = await as(alice)('GET', '/api/integrations/auth/strava/start?return=javascript:alert(1)');
    const oddState = new URL(odd.body.authUrl).searchParams.get('state')!;
    expect(handedOver(await callback({ code: 'x', state: oddState, scope: 'activity:read' })).state).toBe(oddState);
    // The shell's webview then posts it to …/complete with its own session, as the web app does (tested above; not
    // here, so alice stays unconnected for the tests after this one).
  });

  it('refuses a forged, incomplete, under-scoped or unknown completion with the reason the app shows', async () => {
    const refused = async (res: Awaited<ReturnType<typeof complete>>, status: number, code: string) => {
      expect(res.status, res.text).toBe(status);
      expect(res.body.code).toBe(code);
    };
    const tokenCalls = strava.count('/oauth/token');
    await refused(await complete(alice, { code: 'x', state: 'forged', scope: 'activity:read' }), 400, 'invalid_state');
    await refused(await complete(alice, { state: await startState(alice), scope: 'read' }), 400, 'invalid_request');
    await refused(
      await complete(alice, { code: 'x', state: 'y'.repeat(201), scope: 'activity:read' }),
      400,
      'invalid_request',
    );
    // The athlete unticked the activity permission: nothing to import, no token asked for.
    const unticked = codeFor(ALICE_ATHLETE);
    await refused(
      await complete(alice, { code: unticked, state: await startState(alice), scope: 'read' }),
      400,
      'access_denied',
    );
    expect(strava.count('/oauth/token')).toBe(tokenCalls);
    // A code Strava does not know: not a 5xx (a client would retry a spent state).
    await refused(
      await complete(alice, { code: 'unknown-code', state: await startState(alice), scope: 'read,activity:read' }),
      422,
      'callback_failed',
    );
    expect((await runtime.request('POST', '/api/integrations/auth/strava/complete', { body: {} })).status).toBe(401);
    expect((await as(alice)('GET', '/api/integrations')).body.data).toEqual([]);
  });

  it('connects, lists the account without tokens, and backfills the last 30 days of runs once, resuming after a failure', async () => {
    // The activity list fails once on page 2: the first tick records page 1 and stops there.
    strava.failures.push({
      match: (r) => r.path === '/api/v3/athlete/activities' && r.query.get('page') === '2',
      status: 500,
      times: 1,
    });
    const res = await connect(alice, ALICE_ATHLETE);
    expect(res.status, res.text).toBe(200);
    expect(res.body.data).toEqual({ provider: 'strava', connected: true });
    expect(strava.count('/api/v3/athlete/activities')).toBe(0); // nothing fetched inside the request

    const list = await as(alice)('GET', '/api/integrations');
    expect(list.body.data).toEqual([
      expect.objectContaining({ provider: 'strava', external_user_id: String(ALICE_ATHLETE), last_sync_at: null }),
    ]);
    expect(list.text).not.toMatch(/access-|refresh-/);
    const { rows } = await sql<{ access_token_sealed: string; refresh_token_sealed: string }>`
      SELECT access_token_sealed, refresh_token_sealed FROM external_accounts`.execute(runtime.database.db);
    expect(rows[0]!.access_token_sealed).not.toMatch(/access-/);
    expect(rows[0]!.refresh_token_sealed).not.toMatch(/refresh-/);

    await tick();
    const pagesAfterFirstTick = strava.requests
      .filter((r) => r.path === '/api/v3/athlete/activities')
      .map((r) => r.query.get('page'));
    expect(pagesAfterFirstTick).toEqual(['1', '2']);
    await tick(); // the failed page waits for its backoff
    expect(strava.count('/api/v3/athlete/activities')).toBe(2);
    runtime.clock.advance(2 * 60_000);
    await tick();
    await tick();
    const pages = strava.requests
      .filter((r) => r.path === '/api/v3/athlete/activities')
      .map((r) => r.query.get('page'));
    expect(pages).toEqual(['1', '2', '2']); // page 1 is never read again

    const runs = await stravaRuns(alice);
    expect(runs.map((r) => r.import_id).sort()).toEqual(['10', '11', '12', '13', '14', '20']);
    expect(runs.every((r) => r.distance_km === 5)).toBe(true);
    expect(runs.find((r) => r.import_id === '20')!.verification.reasons).toContain('indoor_trainer');
    expect(runs.find((r) => r.import_id === '10')!.verification.reasons).toEqual([]);
    // A synced run read alone (the run detail view): its owner sees its Strava track on the map.
    const one = await as(alice)('GET', `/runs/${runs.find((r) => r.import_id === '10')!.id}`);
    expect(one.status, one.text).toBe(200);
    expect(one.body.data).toMatchObject({ source: 'strava', distance_km: 5 });
    expect(one.body.data.gps_data.positions.length).toBeGreaterThan(1);
    expect((await as(bob)('GET', `/runs/${one.body.data.id}`)).status).toBe(404);
    await untilCommittedIsVisible(runtime.store);
    const recorded = (await runtime.store.readAll({})).filter((e) => e.streamId.startsWith('run-strava-'));
    expect(recorded).toHaveLength(6);
    const connectionEvents = (await runtime.store.readAll({}))
      .filter((e) => e.streamId.startsWith('external-account-'))
      .map((e) => e.type);
    expect(connectionEvents).toEqual([
      'ExternalAccountConnected',
      'ExternalBackfillPageImported',
      'ExternalBackfillPageImported',
      'ExternalBackfillCompleted',
    ]);
    // No tokens, athlete id or athlete name anywhere in the log.
    // What events say (type, data, metadata), not where they sit: a log position may be any number, 1001 too.
    const log = JSON.stringify(
      (await runtime.store.readAll({})).map(({ type, data, metadata }) => ({ type, data, metadata })),
    );
    expect(
      ['access-', 'refresh-', 'Private', `"${ALICE_ATHLETE}"`, `:${ALICE_ATHLETE},`].filter((s) => log.includes(s)),
    ).toEqual([]);
    expect((await as(alice)('GET', '/api/integrations')).body.data[0].last_sync_at).not.toBeNull();
  });

  it('refuses to link an athlete already linked to another user', async () => {
    const res = await connect(bob, ALICE_ATHLETE);
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('callback_failed');
    expect((await as(bob)('GET', '/api/integrations')).body.data).toEqual([]);
  });

  it('syncs only the activities that are new', async () => {
    runtime.clock.advance(HOUR);
    await refreshUsers();
    strava.add(runActivity(30, runtime.clock.now().getTime() - 30 * 60_000));
    const first = await as(alice)('POST', '/api/integrations/strava/sync');
    expect(first.status).toBe(200);
    expect(first.body.data.imported).toBe(1);
    expect((await stravaRuns(alice)).map((r) => r.import_id)).toContain('30');
    const again = await as(alice)('POST', '/api/integrations/strava/sync');
    expect(again.body.data.imported).toBe(0);
    expect(await stravaRuns(alice)).toHaveLength(7);
  });

  it('refreshes an expired access token and always keeps the newest refresh token', async () => {
    const refreshes = () => strava.requests.filter((r) => r.form.get('grant_type') === 'refresh_token');
    runtime.clock.advance(7 * HOUR);
    await refreshUsers();
    expect((await as(alice)('POST', '/api/integrations/strava/sync')).status).toBe(200);
    expect(refreshes()).toHaveLength(1);
    const first = refreshes()[0]!;
    expect(first.form.get('client_id')).toBe(CLIENT_ID);
    expect(first.form.get('client_secret')).toBe(CLIENT_SECRET);
    runtime.clock.advance(7 * HOUR);
    await refreshUsers();
    // The stand-in rotated the refresh token: only the newest one works.
    expect((await as(alice)('POST', '/api/integrations/strava/sync')).status).toBe(200);
    expect(refreshes()).toHaveLength(2);
    expect(refreshes()[1]!.form.get('refresh_token')).not.toBe(first.form.get('refresh_token'));
  });

  it('backs off on a 429 until the rate window resets, without sending anything meanwhile', async () => {
    // Move to 12:05 of some day so the next quarter hour is 12:15.
    const day = new Date(runtime.clock.now().getTime() + DAY);
    day.setUTCHours(12, 5, 0, 0);
    runtime.clock.set(day);
    await refreshUsers();
    await as(alice)('POST', '/api/integrations/strava/sync'); // a fresh token first (6 h have not passed since)
    strava.failures.push({
      match: (r) => r.path === '/api/v3/athlete/activities',
      status: 429,
      headers: { 'x-ratelimit-limit': '200,2000', 'x-ratelimit-usage': '201,320' },
      times: 100,
    });
    const before = strava.requests.length;
    const limited = await as(alice)('POST', '/api/integrations/strava/sync');
    expect(limited.status).toBe(429);
    expect(limited.body.retry_at).toBe(new Date(day.getTime() + 10 * 60_000).toISOString());
    expect(strava.requests.length).toBe(before + 1);
    for (let i = 0; i < 5; i++) expect((await as(alice)('POST', '/api/integrations/strava/sync')).status).toBe(429);
    strava.add(runActivity(31, runtime.clock.now().getTime() - 60_000));
    await webhook({ object_type: 'activity', object_id: 31, aspect_type: 'create', owner_id: ALICE_ATHLETE });
    await tick();
    expect(strava.requests.length).toBe(before + 1); // no storm: nothing left while the window is used up
    strava.failures.pop();
    runtime.clock.advance(11 * 60_000); // 12:16
    await refreshUsers();
    await tick(); // the queued webhook event goes through now
    expect((await stravaRuns(alice)).map((r) => r.import_id)).toContain('31');
    expect((await as(alice)('POST', '/api/integrations/strava/sync')).status).toBe(200);
  });

  it('answers the webhook handshake only with the right verify token', async () => {
    const hub = (token: string) =>
      runtime.request(
        'GET',
        `/api/integrations/strava/webhook?hub.mode=subscribe&hub.challenge=ch-123&hub.verify_token=${token}`,
      );
    const ok = await hub(VERIFY_TOKEN);
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ 'hub.challenge': 'ch-123' });
    expect((await hub('wrong-token')).status).toBe(403);
    expect(
      (await runtime.request('POST', '/api/integrations/strava/webhook', { body: { nonsense: true } })).status,
    ).toBe(400);
  });

  it('imports on a create event, once, after answering at once; ignores spoofed events; deletes on a real delete', async () => {
    const createdAt = runtime.clock.now().getTime() - 20 * 60_000;
    strava.add(runActivity(40, createdAt));
    const before = strava.requests.length;
    const event = { object_type: 'activity', object_id: 40, aspect_type: 'create', owner_id: ALICE_ATHLETE };
    expect((await webhook(event)).status).toBe(200);
    expect((await webhook(event)).status).toBe(200); // Strava's retry of the same event
    expect(strava.requests.length).toBe(before); // nothing fetched while answering
    // Someone posts an event naming Bob's activity as Alice's: fetched, seen to be Bob's, ignored.
    await webhook({ object_type: 'activity', object_id: 5000, aspect_type: 'create', owner_id: ALICE_ATHLETE });
    await tick();
    await tick();
    const ids = (await stravaRuns(alice)).map((r) => r.import_id);
    expect(ids).toContain('40');
    expect(ids).not.toContain('5000');
    expect(strava.count('/api/v3/activities/40')).toBe(1);
    expect((await runtime.store.readStream('run-strava-40')).map((e) => e.type)).toEqual(['RunRecorded']);

    // A delete the activity survived (spoofed): nothing happens. Then it really is deleted at Strava.
    await webhook({ object_type: 'activity', object_id: 40, aspect_type: 'delete', owner_id: ALICE_ATHLETE });
    await tick();
    expect((await stravaRuns(alice)).map((r) => r.import_id)).toContain('40');
    strava.activities.delete(40);
    runtime.clock.advance(1000);
    await webhook({ object_type: 'activity', object_id: 40, aspect_type: 'delete', owner_id: ALICE_ATHLETE });
    await tick();
    expect((await stravaRuns(alice)).map((r) => r.import_id)).not.toContain('40');
    // An update turning a run into a ride removes it too.
    strava.activities.get(10)!.sportType = 'Ride';
    await webhook({
      object_type: 'activity',
      object_id: 10,
      aspect_type: 'update',
      owner_id: ALICE_ATHLETE,
      updates: { type: 'Ride' },
    });
    await tick();
    expect((await stravaRuns(alice)).map((r) => r.import_id)).not.toContain('10');
  });

  it('keeps another user out: nothing listed, nothing to sync or disconnect (404)', async () => {
    expect((await as(bob)('GET', '/api/integrations')).body.data).toEqual([]);
    expect((await as(bob)('DELETE', '/api/integrations/strava/disconnect')).status).toBe(404);
    expect((await as(bob)('POST', '/api/integrations/strava/sync')).status).toBe(404);
    expect((await as(alice)('GET', '/api/integrations')).body.data).toHaveLength(1);
  });

  it('drops the account on a deauthorization Strava confirms, not on a spoofed one; runs stay', async () => {
    const runsBefore = (await stravaRuns(alice)).length;
    const deauth = {
      object_type: 'athlete',
      object_id: ALICE_ATHLETE,
      aspect_type: 'update',
      owner_id: ALICE_ATHLETE,
      updates: { authorized: 'false' },
    };
    await webhook(deauth);
    await tick();
    expect((await as(alice)('GET', '/api/integrations')).body.data).toHaveLength(1); // Strava still honours the tokens
    strava.revoke(ALICE_ATHLETE);
    runtime.clock.advance(1000);
    await webhook(deauth);
    await tick();
    expect((await as(alice)('GET', '/api/integrations')).body.data).toEqual([]);
    expect(await stravaRuns(alice)).toHaveLength(runsBefore);
  });

  it('disconnects: deauthorizes at Strava, forgets the tokens, keeps the runs', async () => {
    await refreshUsers();
    const res = await connect(alice, ALICE_ATHLETE);
    expect(res.status, res.text).toBe(200);
    const runsBefore = (await stravaRuns(alice)).length;
    const gone = await as(alice)('DELETE', '/api/integrations/strava/disconnect');
    expect(gone.status).toBe(200);
    expect(strava.count('/oauth/deauthorize')).toBe(1);
    expect((await as(alice)('GET', '/api/integrations')).body.data).toEqual([]);
    expect(await stravaRuns(alice)).toHaveLength(runsBefore);
    expect((await as(alice)('DELETE', '/api/integrations/strava/disconnect')).status).toBe(404);
    expect((await as(alice)('DELETE', '/api/integrations/garmin/disconnect')).status).toBe(501);
    await tick(); // the reconnection's backfill, if still queued, finds no account and stops
    await untilCommittedIsVisible(runtime.store);
    const types = (await runtime.store.readAll({}))
      .filter((e) => e.streamId.startsWith('external-account-'))
      .map((e) => e.type);
    expect(types.filter((t) => t === 'ExternalAccountDisconnected')).toHaveLength(2);
  });

  describe('the OAuth round trip is bound to the session that started it (Trust by construction, item 2)', () => {
    const SCOPE = 'read,activity:read_all';
    /** The authorize page at Strava: the athlete consents as `athleteId`; the browser then follows to our callback. */
    const consentAt = async (authUrl: string, athleteId: number) => {
      strava.consent = { athleteId, decision: 'approve' };
      const atStrava = await fetch(authUrl, { redirect: 'manual' });
      const next = new URL(atStrava.headers.get('location')!);
      expect(`${next.origin}${next.pathname}`).toBe(`${PUBLIC_URL}/api/integrations/strava/callback`);
      return runtime.request('GET', `${next.pathname}${next.search}`);
    };
    const authUrlFor = async (user: TestUser) =>
      (await as(user)('GET', '/api/integrations/auth/strava/start')).body.authUrl as string;
    const refusedAsInvalidState = (res: Awaited<ReturnType<typeof complete>>) => {
      expect(res.status, res.text).toBe(400);
      expect(res.body.code).toBe('invalid_state');
    };

    it("a victim who completes the attacker's authorize URL links nothing: not to the attacker, not to the victim", async () => {
      const [mallory, victim] = [await createTestUser(runtime, 'mallory'), await createTestUser(runtime, 'victim')];
      const linkedBefore = await linkedAthletes();
      const tokenCalls = strava.count('/oauth/token');
      // Mallory starts, and gets the victim to open her authorize URL; the victim consents as themselves and comes
      // back to the app, signed in as themselves.
      const back = handedOver(await consentAt(await authUrlFor(mallory), 6006));
      refusedAsInvalidState(await complete(victim, back));
      // The other way round: Mallory consents as herself and has the victim's browser open her hand-over.
      const hers = handedOver(await consentAt(await authUrlFor(mallory), 6007));
      refusedAsInvalidState(await complete(victim, hers));
      expect(strava.count('/oauth/token')).toBe(tokenCalls); // no code was exchanged
      expect(await linkedAthletes()).toEqual(linkedBefore);
      expect((await as(mallory)('GET', '/api/integrations')).body.data).toEqual([]);
      expect((await as(victim)('GET', '/api/integrations')).body.data).toEqual([]);
    });

    it('refuses a replayed state: it links once, and never again', async () => {
      const carol = await createTestUser(runtime, 'carol');
      const state = await startState(carol);
      const first = await complete(carol, handedOver(await callback({ code: codeFor(6101), state, scope: SCOPE })));
      expect(first.status, first.text).toBe(200);
      const tokenCalls = strava.count('/oauth/token');
      refusedAsInvalidState(await complete(carol, { code: codeFor(6102), state, scope: SCOPE }));
      refusedAsInvalidState(await complete(carol, { code: codeFor(6101), state, scope: SCOPE }));
      expect(strava.count('/oauth/token')).toBe(tokenCalls);
      const linked = (await linkedAthletes()).filter((a) => ['6101', '6102'].includes(a.external_user_id));
      expect(linked).toEqual([{ user_id: carol.id, external_user_id: '6101' }]);
    });

    it("refuses a state started by another session of the same user (and the starting session's still works)", async () => {
      const dan = await createTestUser(runtime, 'dan');
      const danOnAnotherDevice = await freshToken(runtime, dan);
      const state = await startState(dan);
      const back = handedOver(await callback({ code: codeFor(6201), state, scope: SCOPE }));
      refusedAsInvalidState(await complete(danOnAnotherDevice, back));
      expect((await linkedAthletes()).some((a) => a.external_user_id === '6201')).toBe(false);
      // The refusal did not spend it: the browser that started completes.
      const res = await complete(dan, back);
      expect(res.status, res.text).toBe(200);
      expect((await linkedAthletes()).filter((a) => a.user_id === dan.id)).toEqual([
        { user_id: dan.id, external_user_id: '6201' },
      ]);
    });

    it('refuses a state older than 10 minutes', async () => {
      const eve = await createTestUser(runtime, 'eve');
      const old = await startState(eve);
      runtime.clock.advance(6 * 60_000);
      const recent = await startState(eve);
      runtime.clock.advance(4 * 60_000 + 1_000); // old: 10 min 1 s; recent: 4 min 1 s
      const tokenCalls = strava.count('/oauth/token');
      refusedAsInvalidState(await complete(eve, { code: codeFor(6301), state: old, scope: SCOPE }));
      expect(strava.count('/oauth/token')).toBe(tokenCalls);
      const res = await complete(eve, { code: codeFor(6302), state: recent, scope: SCOPE });
      expect(res.status, res.text).toBe(200);
      expect((await linkedAthletes()).filter((a) => a.user_id === eve.id)).toEqual([
        { user_id: eve.id, external_user_id: '6302' },
      ]);
    });

    it('of parallel completions with one state, exactly one links', async () => {
      const fay = await createTestUser(runtime, 'fay');
      const state = await startState(fay);
      const tokenCalls = strava.count('/oauth/token');
      const athletes = [6401, 6402, 6403, 6404, 6405, 6406, 6407, 6408];
      const results = await Promise.all(
        athletes.map((athlete) => complete(fay, { code: codeFor(athlete), state, scope: SCOPE })),
      );
      expect(results.map((r) => r.status).sort()).toEqual([200, 400, 400, 400, 400, 400, 400, 400]);
      expect(results.filter((r) => r.status === 400).every((r) => r.body.code === 'invalid_state')).toBe(true);
      expect(strava.count('/oauth/token')).toBe(tokenCalls + 1);
      const linked = (await linkedAthletes()).filter((a) => athletes.map(String).includes(a.external_user_id));
      expect(linked).toHaveLength(1);
      expect(linked[0]!.user_id).toBe(fay.id);
    });

    it('keeps at most a few open round trips per session and sweeps expired ones', async () => {
      const gus = await createTestUser(runtime, 'gus');
      const states = [];
      for (let i = 0; i < 8; i++) {
        states.push(await startState(gus));
        runtime.clock.advance(1_000);
      }
      const open = async () =>
        (
          await sql<{ n: number }>`SELECT count(*)::int AS n FROM oauth_states WHERE user_id = ${gus.id}`.execute(
            runtime.database.db,
          )
        ).rows[0]!.n;
      expect(await open()).toBe(5);
      // The oldest were dropped; the newest still completes.
      refusedAsInvalidState(await complete(gus, { code: codeFor(6501), state: states[2]!, scope: SCOPE }));
      expect((await complete(gus, { code: codeFor(6502), state: states[3]!, scope: SCOPE })).status).toBe(200);
      runtime.clock.advance(11 * 60_000);
      await startState(await freshToken(runtime, gus));
      expect(await open()).toBe(1); // the 4 left expired and were swept
    });
  });

  describe('the webhook stores only small, well-formed, deduplicated events of connected athletes (item 4)', () => {
    const ERIN_ATHLETE = 7007;
    let erin: TestUser;
    const post = (body: unknown, headers: Record<string, string> = {}) =>
      runtime.request('POST', '/api/integrations/strava/webhook', { body, headers });
    const event = (extra: Record<string, unknown> = {}) => ({
      object_type: 'activity',
      object_id: 7100,
      aspect_type: 'create',
      owner_id: ERIN_ATHLETE,
      subscription_id: 1,
      event_time: Math.floor(runtime.clock.now().getTime() / 1000),
      updates: {},
      ...extra,
    });
    /** What the webhook writes to: its inbox and the counters of its caps. */
    const footprint = async () =>
      (
        await sql<{ bytes: string; inbox: number; counters: number }>`
          SELECT (pg_total_relation_size('strava_webhook_inbox') + pg_total_relation_size('auth_rate_limits'))::text
                   AS bytes,
                 (SELECT count(*)::int FROM strava_webhook_inbox) AS inbox,
                 (SELECT count(*)::int FROM auth_rate_limits WHERE key LIKE 'strava-webhook:%') AS counters`.execute(
          runtime.database.db,
        )
      ).rows[0]!;
    const inParallel = async <T>(count: number, burst: number, one: (i: number) => Promise<T>) => {
      const results: T[] = [];
      for (let start = 0; start < count; start += burst) {
        const size = Math.min(burst, count - start);
        results.push(...(await Promise.all(Array.from({ length: size }, (_, k) => one(start + k)))));
      }
      return results;
    };

    it('connects the athlete whose events follow', async () => {
      erin = await createTestUser(runtime, 'erin');
      expect((await connect(erin, ERIN_ATHLETE)).status).toBe(200);
      await tick(); // the (empty) backfill
    });

    it('refuses 40 bodies of 1.9 MB with 413 before reading them: the database does not grow', async () => {
      const before = await footprint();
      const big = JSON.stringify(event({ updates: { title: 'x'.repeat(1_900_000) } }));
      // Half say their length (refused from the header), half are streamed (refused once 4 KB have passed).
      const answers = await inParallel(40, 10, (i) =>
        post(big, i % 2 === 0 ? { 'content-length': String(Buffer.byteLength(big)) } : {}),
      );
      expect(answers.map((a) => a.status)).toEqual(Array(40).fill(413));
      // Refused before any parsing: neither "not JSON" nor "too deeply nested" (both 400s of the parsers).
      expect((await post(`{${'"a":'.repeat(2_000)}`)).status).toBe(413);
      expect((await post(`${'['.repeat(5_000)}${']'.repeat(5_000)}`)).status).toBe(413);
      // Just over the limit, even a well-formed event of a connected athlete.
      const justOver = JSON.stringify(event({ object_id: 7101 }));
      expect((await post(`${justOver}${' '.repeat(4 * 1024 + 1 - Buffer.byteLength(justOver))}`)).status).toBe(413);
      expect(await footprint()).toEqual(before);
    });

    it('stores nothing for 5,000 forged events of owners who are not connected, nor for malformed ones', async () => {
      const before = await footprint();
      const answers = await inParallel(5_000, 50, (i) =>
        post(event({ object_id: 800_000 + i, owner_id: 90_000_000 + i, aspect_type: ['create', 'update'][i % 2] })),
      );
      expect(answers.filter((a) => a.status !== 200).map((a) => a.status)).toEqual([]);
      for (const malformed of [
        event({ updates: { title: { nested: true } } }),
        event({ updates: Object.fromEntries(Array.from({ length: 11 }, (_, i) => [`k${i}`, 'v'])) }),
        event({ updates: { 'not a key!': 'v' } }),
        event({ updates: ['a'] }),
        event({ owner_id: 1e308 }),
        event({ owner_id: -1 }),
        event({ object_id: '12ab' }),
        event({ object_type: 'route' }),
        event({ aspect_type: 'explode' }),
        event({ event_time: 'yesterday' }),
        event({ event_time: undefined }),
        'not json',
        [],
      ]) {
        expect((await post(malformed)).status, JSON.stringify(malformed)).toBe(400);
      }
      expect(await footprint()).toEqual(before);
    });

    it('stores a real event once and imports it once, however often it arrives at once', async () => {
      strava.add(runActivity(7200, runtime.clock.now().getTime() - 30 * 60_000, { athleteId: ERIN_ATHLETE }));
      const same = event({ object_id: 7200 });
      // Strava's retries, and copies with other `updates` (one event is one key, whatever its updates say).
      const answers = await Promise.all([
        ...Array.from({ length: 10 }, () => post(same)),
        ...Array.from({ length: 5 }, (_, i) => post({ ...same, updates: { title: `copy ${i}` } })),
      ]);
      expect(answers.map((a) => a.status)).toEqual(Array(15).fill(200));
      const stored = await sql<{ n: number }>`
        SELECT count(*)::int AS n FROM strava_webhook_inbox WHERE payload->>'object_id' = '7200'`.execute(
        runtime.database.db,
      );
      expect(stored.rows[0]!.n).toBe(1);
      // Only the stored copy counts against the athlete's cap (the retries gave their slots back).
      const slots = await sql<{ count: number }>`
        SELECT count FROM auth_rate_limits WHERE key = ${`strava-webhook:owner:${ERIN_ATHLETE}`}`.execute(
        runtime.database.db,
      );
      expect(slots.rows[0]!.count).toBe(1);
      await tick();
      await tick();
      expect(strava.count('/api/v3/activities/7200')).toBe(1);
      expect((await runtime.store.readStream('run-strava-7200')).map((e) => e.type)).toEqual(['RunRecorded']);
      erin = await freshToken(runtime, erin);
      expect((await stravaRuns(erin)).map((r) => r.import_id)).toEqual(['7200']);
    });

    it('caps what one athlete and everyone together may store; beyond, 429 with Retry-After and nothing stored', async () => {
      runtime.clock.advance(15 * 60_000 + 1_000); // a fresh window
      const inbox = async () =>
        (
          await sql<{ n: number }>`
            SELECT count(*)::int AS n FROM strava_webhook_inbox WHERE payload->>'owner_id' = ${String(ERIN_ATHLETE)}`.execute(
            runtime.database.db,
          )
        ).rows[0]!.n;
      const before = await inbox();
      const answers = await inParallel(70, 35, (i) => post(event({ object_id: 7300 + i, aspect_type: 'update' })));
      expect(answers.filter((a) => a.status === 200)).toHaveLength(60);
      const refused = answers.filter((a) => a.status === 429);
      expect(refused).toHaveLength(10);
      expect(Number(refused[0]!.headers.get('retry-after'))).toBeGreaterThan(0);
      expect((await inbox()) - before).toBe(60);

      // Everyone's cap: the window's budget is used up (as by events of many athletes); Erin's next window is fresh.
      runtime.clock.advance(15 * 60_000 + 1_000);
      expect((await post(event({ object_id: 7400 }))).status).toBe(200);
      await sql`UPDATE auth_rate_limits SET count = 1000 WHERE key = 'strava-webhook:all'`.execute(runtime.database.db);
      const full = await post(event({ object_id: 7401 }));
      expect(full.status).toBe(429);
      expect((await inbox()) - before).toBe(61);
      // The athlete's slot taken for the refused event was given back.
      const slots = await sql<{ count: number }>`
        SELECT count FROM auth_rate_limits WHERE key = ${`strava-webhook:owner:${ERIN_ATHLETE}`}`.execute(
        runtime.database.db,
      );
      expect(slots.rows[0]!.count).toBe(1);
    });
  });
});
