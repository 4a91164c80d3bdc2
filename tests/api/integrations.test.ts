import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
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
  const connect = async (user: TestUser, athleteId: number, scope = 'read,activity:read_all') => {
    const code = `code-${athleteId}-${Math.random()}`;
    strava.codes.set(code, athleteId);
    return callback({ code, state: await startState(user), scope });
  };
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

  it('sends the browser back with an error for a denied, forged, expired, incomplete or under-scoped return', async () => {
    const back = (res: { status: number; headers: Headers }) => {
      expect(res.status).toBe(302);
      return res.headers.get('location');
    };
    const err = (e: string) => `${APP_URL}/connected-apps?error=${e}`;
    const state = await startState(alice);
    expect(back(await callback({ error: 'access_denied', state }))).toBe(err('access_denied'));
    expect(back(await callback({ code: 'x', state: 'forged', scope: 'activity:read' }))).toBe(err('invalid_state'));
    expect(back(await callback({ code: 'x', scope: 'activity:read' }))).toBe(err('invalid_state'));
    expect(back(await callback({ state, scope: 'activity:read' }))).toBe(err('invalid_request'));
    // The athlete unticked the activity permission: nothing to import, no token asked for.
    const tokenCalls = strava.count('/oauth/token');
    strava.codes.set('code-unticked', ALICE_ATHLETE);
    expect(back(await callback({ code: 'code-unticked', state, scope: 'read' }))).toBe(err('access_denied'));
    expect(strava.count('/oauth/token')).toBe(tokenCalls);
    // A code Strava does not know.
    expect(back(await callback({ code: 'unknown-code', state, scope: 'read,activity:read' }))).toBe(
      err('callback_failed'),
    );
    // A state older than 10 minutes.
    runtime.clock.advance(11 * 60_000);
    expect(back(await callback({ code: 'code-unticked', state, scope: 'read,activity:read' }))).toBe(
      err('invalid_state'),
    );
    runtime.clock.set(new Date(NOW).toISOString());
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
    expect(res.headers.get('location')).toBe(`${APP_URL}/connected-apps?success=strava`);
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
    expect(res.headers.get('location')).toBe(`${APP_URL}/connected-apps?error=callback_failed`);
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
    const res = await connect(alice, ALICE_ATHLETE);
    expect(res.headers.get('location')).toBe(`${APP_URL}/connected-apps?success=strava`);
    const runsBefore = (await stravaRuns(alice)).length;
    const gone = await as(alice)('DELETE', '/api/integrations/strava/disconnect');
    expect(gone.status).toBe(200);
    expect(strava.count('/oauth/deauthorize')).toBe(1);
    expect((await as(alice)('GET', '/api/integrations')).body.data).toEqual([]);
    expect(await stravaRuns(alice)).toHaveLength(runsBefore);
    expect((await as(alice)('DELETE', '/api/integrations/strava/disconnect')).status).toBe(404);
    expect((await as(alice)('DELETE', '/api/integrations/garmin/disconnect')).status).toBe(501);
    await tick(); // the reconnection's backfill, if still queued, finds no account and stops
    const types = (await runtime.store.readAll({}))
      .filter((e) => e.streamId.startsWith('external-account-'))
      .map((e) => e.type);
    expect(types.filter((t) => t === 'ExternalAccountDisconnected')).toHaveLength(2);
  });
});
