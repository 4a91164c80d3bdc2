import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  INVITE_GUESSES,
  LIMIT_CLASSES,
  type LimitClassName,
  scaled,
} from '../../app-server/http/limits/route-limits.ts';
import { IDEMPOTENCY_KEYS_PER_USER } from '../../app-server/http/limits/route-limits.ts';
import { policyIndex } from '../../app-server/http/middleware/rate-limit.ts';
import { GROUP_MEMBERS_MAX } from '../../domain/group/policy.ts';
import { streams } from '../../domain/shared/streams.ts';
import { freshIp } from './auth-helpers.ts';
import { databaseTargets, startTestRuntime, type TestResponse, type TestRuntime } from '../support/test-runtime.ts';
import { createTestUser, runBody, settle, type TestUser } from '../support/users.ts';

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

const meta = (at: string) => ({
  eventId: randomUUID(),
  occurredAt: at,
  actorId: null,
  correlationId: 'test',
  causationId: null,
  schemaVersion: 1,
});

/** Statuses of a parallel burst, with the 429s' Retry-After and messages. */
async function burst(count: number, send: () => Promise<TestResponse>) {
  const answers = await Promise.all(Array.from({ length: count }, send));
  const refused = answers.filter((a) => a.status === 429);
  return { passed: answers.length - refused.length, refused, answers };
}

/** A client signed in as `user` from one address of its own (X-Forwarded-For, trusted by this config). */
const client =
  (rt: () => TestRuntime, user: TestUser | null, ip = freshIp()) =>
  (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
    rt().request(method, path, {
      ...(user ? { token: user.token } : {}),
      ...(body === undefined ? {} : { body }),
      headers: { 'x-forwarded-for': ip, ...headers },
    });

describe.each(databaseTargets())('request limits as configured (multiplier 1) on %s', (target) => {
  let rt: TestRuntime;
  const runtime = () => rt;
  beforeAll(async () => {
    rt = await startTestRuntime(target, {
      now: '2026-11-18T12:00:00Z',
      config: { AUTH_TRUST_PROXY: true, RATE_LIMIT_MULTIPLIER: 1, GROUPS_MAX_PER_USER: 3 },
    });
  }, 60_000);
  afterAll(async () => rt?.close());

  it('declares a limit policy for every operation of GET /openapi.json (x-rate-limit) and every registered route', async () => {
    const doc = (await rt.request('GET', '/openapi.json')).body;
    const operations = Object.entries(doc.paths as Record<string, Record<string, Record<string, unknown>>>).flatMap(
      ([path, item]) => METHODS.filter((m) => item[m]).map((m) => ({ id: `${m} ${path}`, op: item[m]! })),
    );
    expect(operations.length).toBeGreaterThan(60);
    // One window per class: both keys of a request are counted in one statement over one window.
    for (const spec of Object.values(LIMIT_CLASSES)) {
      if ('perUser' in spec) expect(spec.perUser.windowSeconds).toBe(spec.perAddress.windowSeconds);
    }
    expect(operations.filter((o) => !o.op['x-rate-limit']).map((o) => o.id)).toEqual([]);
    for (const { id, op } of operations) {
      const limit = op['x-rate-limit'] as { class: string; per_user: unknown; per_address: unknown };
      if (limit.class === 'auth-service') {
        expect(id.startsWith('post /auth/v1') || id.includes(' /auth/v1/'), id).toBe(true);
        continue;
      }
      const spec = LIMIT_CLASSES[limit.class as LimitClassName];
      expect(spec, id).toBeDefined();
      expect(limit.per_address).toEqual({ max: spec.perAddress.max, window_seconds: spec.perAddress.windowSeconds });
      expect((op.responses as Record<string, unknown>)['429'], id).toBeDefined();
    }
    // Every route Hono registered finds its policy the way the middleware does.
    const policyOf = policyIndex();
    const unlimited = rt.app.routes
      .filter((r) => r.method !== 'ALL' && !r.path.includes('*'))
      .filter((r) => policyOf(r.method, r.path) === null)
      .map((r) => `${r.method} ${r.path}`);
    expect(unlimited).toEqual([]);
    const classOf = (path: string, method: string) => doc.paths[path][method]['x-rate-limit'].class;
    expect(classOf('/auth/v1/token', 'post')).toBe('auth-service');
    expect(classOf('/health', 'get')).toBe('public');
    expect(classOf('/api/payment/webhook', 'post')).toBe('webhook');
    expect(classOf('/api/integrations/strava/webhook', 'post')).toBe('webhook');
    expect(classOf('/groups/join', 'post')).toBe('create');
    expect(classOf('/goals/current', 'get')).toBe('read');
    expect(classOf('/realtime', 'get')).toBe('stream');
  });

  it('lets exactly `max` of a parallel burst of writes through, answers the rest 429 with Retry-After, and counts each user and address apart', async () => {
    const max = LIMIT_CLASSES.write.perUser.max;
    const user = await createTestUser(rt, 'writer');
    const as = client(runtime, user);
    const { passed, refused } = await burst(3 * max, () => as('DELETE', `/runs/${randomUUID()}`));
    expect(passed).toBe(max);
    expect(refused).toHaveLength(2 * max);
    for (const answer of refused) {
      expect(answer.headers.get('retry-after')).toBe('60');
      expect(answer.body).toEqual({ error: 'Too many requests. Try again in 60 seconds.', code: 'rate_limited' });
    }
    // Another user elsewhere is unaffected; the same user from another address is still over their own budget.
    const other = await createTestUser(rt, 'bystander');
    expect((await client(runtime, other)('DELETE', `/runs/${randomUUID()}`)).status).toBe(404);
    expect((await client(runtime, user)('DELETE', `/runs/${randomUUID()}`)).status).toBe(429);
    // Reads are another class: the writer still reads.
    expect((await as('GET', '/goals/current')).status).not.toBe(429);
    rt.clock.advance(30_000);
    expect((await as('DELETE', `/runs/${randomUUID()}`)).headers.get('retry-after')).toBe('30');
    rt.clock.advance(30_000);
    expect((await as('DELETE', `/runs/${randomUUID()}`)).status).toBe(404);
  });

  it('counts per address for callers without an account: a webhook burst from one address, and a forged token counts per address only', async () => {
    const ip = freshIp();
    const anonymous = client(runtime, null, ip);
    const max = LIMIT_CLASSES.stream.perAddress.max;
    const { passed, refused } = await burst(max + 20, () =>
      anonymous('GET', '/realtime', undefined, { authorization: 'Bearer forged' }),
    );
    expect(passed).toBe(max);
    expect(refused).toHaveLength(20);
    expect(refused[0]!.headers.get('retry-after')).toBe('60');
  });

  it('wrong invite codes: the 11th of a parallel burst is 429, then even the right code waits for the window; other users and addresses are unaffected', async () => {
    const owner = await createTestUser(rt, 'owner');
    const group = await client(runtime, owner)('POST', '/groups', { name: 'Guarded' });
    expect(group.status).toBe(201);
    const code: string = group.body.data.invite_code;
    const guesser = await createTestUser(rt, 'guesser');
    const guesserIp = freshIp();
    const guessAs = client(runtime, guesser, guesserIp);
    const wrong = (n: number) => `ZZ${String(n).padStart(6, '0')}`;
    let n = 0;
    const { passed, refused, answers } = await burst(INVITE_GUESSES.perUser.max + 5, () =>
      guessAs('POST', '/groups/join', { invite_code: wrong(n++) }),
    );
    expect(passed).toBe(INVITE_GUESSES.perUser.max);
    expect(answers.filter((a) => a.status === 400).every((a) => a.body.error === 'Invalid invite code')).toBe(true);
    expect(refused[0]!.headers.get('retry-after')).toBe(String(15 * 60));
    expect(refused[0]!.body.error).toBe('Too many requests. Try again in 900 seconds.');
    // No guessing: the right code is refused too until the window ends, from any address.
    expect((await guessAs('POST', '/groups/join', { invite_code: code })).status).toBe(429);
    expect((await client(runtime, guesser)('POST', '/groups/join', { invite_code: code })).status).toBe(429);
    // Another user at another address joins; another user at the guesser's address too (its budget is larger).
    const friend = await createTestUser(rt, 'friend');
    expect((await client(runtime, friend)('POST', '/groups/join', { invite_code: code })).status).toBe(200);
    const flatmate = await createTestUser(rt, 'flatmate');
    expect((await client(runtime, flatmate, guesserIp)('POST', '/groups/join', { invite_code: code })).status).toBe(
      200,
    );
    rt.clock.advance(15 * 60 * 1000);
    expect((await guessAs('POST', '/groups/join', { invite_code: code })).status).toBe(200);
  });

  it('right codes do not use up guesses: joins that succeed give their slot back', async () => {
    const owner = await createTestUser(rt, 'host');
    const joiner = await createTestUser(rt, 'joiner');
    const ownerAs = client(runtime, owner);
    const joinerAs = client(runtime, joiner);
    const group = (await ownerAs('POST', '/groups', { name: 'Open door' })).body.data;
    // Join and leave more times than the guess budget: every join is right, none counts.
    for (let i = 0; i < 6; i++) {
      expect((await joinerAs('POST', '/groups/join', { invite_code: group.invite_code })).status).toBe(200);
      expect((await joinerAs('POST', `/groups/${group.id}/leave`)).status).toBe(200);
    }
    const wrongs = await burst(INVITE_GUESSES.perUser.max, () =>
      joinerAs('POST', '/groups/join', { invite_code: 'WRONGCDE' }),
    );
    expect(wrongs.passed).toBe(INVITE_GUESSES.perUser.max);
  });

  it(`caps groups per user (created and joined, counted atomically) and members per group (${GROUP_MEMBERS_MAX})`, async () => {
    const max = 3;
    const founder = await createTestUser(rt, 'founder');
    const as = client(runtime, founder);
    const created = await burst(3 * max, () => as('POST', '/groups', { name: `Club ${randomUUID().slice(0, 8)}` }));
    expect(created.answers.filter((a) => a.status === 201)).toHaveLength(max);
    const over = created.answers.filter((a) => a.status === 409);
    expect(over).toHaveLength(2 * max);
    expect(over[0]!.body).toMatchObject({
      error: 'You can be in at most 3 groups. Leave one to create or join another.',
      code: 'group_limit',
    });
    expect((await as('GET', '/groups')).body.groups).toHaveLength(max);

    // Joining counts too; leaving gives the slot back.
    const other = await createTestUser(rt, 'other');
    const otherAs = client(runtime, other);
    const theirs = (await otherAs('POST', '/groups', { name: 'Theirs' })).body.data;
    const refused = await as('POST', '/groups/join', { invite_code: theirs.invite_code });
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('group_limit');
    const joiner = await createTestUser(rt, 'member');
    const joinerAs = client(runtime, joiner);
    await joinerAs('POST', '/groups', { name: 'Mine one' });
    await joinerAs('POST', '/groups', { name: 'Mine two' });
    expect((await joinerAs('POST', '/groups/join', { invite_code: theirs.invite_code })).status).toBe(200);
    expect((await joinerAs('POST', '/groups', { name: 'Mine three' })).status).toBe(409);
    expect((await joinerAs('POST', `/groups/${theirs.id}/leave`)).status).toBe(200);
    expect((await joinerAs('POST', '/groups', { name: 'Mine three' })).status).toBe(201);

    // Members: fill a group to the cap with members straight in its stream, then the next join is refused.
    const at = rt.clock.now().toISOString();
    await rt.store.appendToStream(
      streams.group(theirs.id),
      Array.from({ length: GROUP_MEMBERS_MAX - 1 }, () => ({
        type: 'MemberJoined',
        data: { groupId: theirs.id, userId: randomUUID(), joinedAt: at },
        metadata: meta(at),
      })),
    );
    const late = await createTestUser(rt, 'late');
    const full = await client(runtime, late)('POST', '/groups/join', { invite_code: theirs.invite_code });
    expect(full.status).toBe(409);
    expect(full.body).toMatchObject({ error: `This group is full (at most ${GROUP_MEMBERS_MAX} members)` });
  });

  it('pages GET /groups with limit and cursor (newest membership first)', async () => {
    const user = await createTestUser(rt, 'pager');
    const as = client(runtime, user);
    for (const name of ['First club', 'Second club', 'Third club']) {
      expect((await as('POST', '/groups', { name })).status).toBe(201);
      rt.clock.advance(1000);
    }
    const first = await as('GET', '/groups?limit=2');
    expect(first.body.groups.map((g: { name: string }) => g.name)).toEqual(['Third club', 'Second club']);
    expect(typeof first.body.next_cursor).toBe('string');
    const second = await as('GET', `/groups?limit=2&cursor=${encodeURIComponent(first.body.next_cursor)}`);
    expect(second.body.groups.map((g: { name: string }) => g.name)).toEqual(['First club']);
    expect(second.body.next_cursor).toBeNull();
    expect((await as('GET', '/groups')).body.groups).toHaveLength(3);
    expect((await as('GET', '/groups?cursor=nope')).body.error).toBe('Invalid cursor');
    expect((await as('GET', '/groups?limit=51')).body.error).toBe('limit: must be between 1 and 50');
  });

  it('caps open live-update streams per user; closing one makes room', async () => {
    const max = rt.config.REALTIME_MAX_STREAMS_PER_USER;
    const user = await createTestUser(rt, 'watcher');
    const open = () =>
      rt.app.request('/realtime', {
        headers: { authorization: `Bearer ${user.token}`, 'x-forwarded-for': '10.99.0.1' },
      });
    const answers = await Promise.all(Array.from({ length: 2 * max }, open));
    const streamsOpen = answers.filter((a) => a.status === 200);
    const refused = answers.filter((a) => a.status === 429);
    expect(streamsOpen).toHaveLength(max);
    expect(refused).toHaveLength(max);
    expect(refused[0]!.headers.get('retry-after')).toBe('30');
    expect(((await refused[0]!.json()) as { error: string }).error).toBe(
      `Too many live-update streams open (at most ${max}). Close one, or try again in 30 seconds.`,
    );
    await streamsOpen[0]!.body!.cancel();
    let again: Response | null = null;
    for (let i = 0; i < 15 && again?.status !== 200; i++) {
      await again?.body?.cancel();
      await new Promise((resolve) => setTimeout(resolve, 20));
      again = await open();
    }
    expect(again?.status).toBe(200);
    await again?.body?.cancel();
    for (const s of streamsOpen.slice(1)) await s.body!.cancel();
  });

  it('a reaction toggle reads O(1) events, however many toggles came before', async () => {
    const author = await createTestUser(rt, 'author');
    const as = client(runtime, author);
    const run = await as('POST', '/runs', runBody('2026-11-18T10:00:00Z', 5));
    expect(run.status).toBe(201);
    await settle(rt);
    const card = `run-${run.body.data.id}`;
    // Events read from reaction streams (the card's old one and the reaction's own) by the request.
    let read = 0;
    const readStream = rt.store.readStream.bind(rt.store);
    rt.store.readStream = async (...args) => {
      const events = await readStream(...args);
      if (/^(feed-)?reactions?-/.test(args[0])) read += events.length;
      return events;
    };
    const toggle = async (i: number) => {
      read = 0;
      const answer =
        i % 2 === 0
          ? await as('POST', `/feed/${card}/reactions`, { emoji: 'fire' }, { 'idempotency-key': randomUUID() })
          : await as('DELETE', `/feed/${card}/reactions/fire`);
      expect(answer.status).toBe(i % 2 === 0 ? 201 : 200);
      return read;
    };
    try {
      await toggle(0);
      await toggle(1);
      const early = [await toggle(0), await toggle(1)];
      // Thousands of toggles of this reaction before the next one (appended as the command would).
      const at = rt.clock.now().toISOString();
      const history = Array.from({ length: 5000 }, (_, i) => ({
        type: i % 2 === 0 ? 'ReactionAdded' : 'ReactionRemoved',
        data: { feedEventId: card, userId: author.id, emoji: 'fire', at },
        metadata: meta(at),
      }));
      await rt.store.appendToStream(streams.reaction(card, author.id, 'fire'), history);
      const late = [await toggle(0), await toggle(1)];
      expect(late).toEqual(early);
      expect(Math.max(...late)).toBeLessThanOrEqual(2);
    } finally {
      rt.store.readStream = readStream;
    }
  });

  it("carries a reaction over from the card's old stream once, then reads only its own", async () => {
    const author = await createTestUser(rt, 'legacy');
    const as = client(runtime, author);
    const run = await as('POST', '/runs', runBody('2026-11-18T08:00:00Z', 3));
    await settle(rt);
    const card = `run-${run.body.data.id}`;
    const at = rt.clock.now().toISOString();
    await rt.store.appendToStream(streams.feedReactions(card), [
      { type: 'ReactionAdded', data: { feedEventId: card, userId: author.id, emoji: 'clap', at }, metadata: meta(at) },
    ]);
    expect((await as('POST', `/feed/${card}/reactions`, { emoji: 'clap' })).status).toBe(409);
    expect((await as('DELETE', `/feed/${card}/reactions/clap`)).status).toBe(200);
    expect((await as('POST', `/feed/${card}/reactions`, { emoji: 'clap' })).status).toBe(201);
    const own = await rt.store.readStream(streams.reaction(card, author.id, 'clap'));
    expect(own.map((e) => e.type)).toEqual(['ReactionRemoved', 'ReactionAdded']);
  });
});

describe.each(databaseTargets())(
  'request limits under parallel bursts, every class (multiplier 0.1) on %s',
  (target) => {
    const multiplier = 0.1;
    let rt: TestRuntime;
    const runtime = () => rt;
    beforeAll(async () => {
      rt = await startTestRuntime(target, {
        now: '2026-11-18T12:00:00Z',
        config: { AUTH_TRUST_PROXY: true, RATE_LIMIT_MULTIPLIER: multiplier },
      });
    }, 60_000);
    afterAll(async () => rt?.close());

    type PerUserClass = 'read' | 'write' | 'create' | 'notify' | 'tracking' | 'stream';
    const cases: [PerUserClass, string, string, unknown?][] = [
      ['read', 'GET', '/goals/current'],
      ['write', 'PUT', '/me/preferences', { distance_unit: 'km' }],
      ['create', 'POST', '/groups', {}],
      ['notify', 'POST', '/notifications/test', {}],
      ['tracking', 'POST', '/runs/gps/positions', {}],
      ['stream', 'GET', '/realtime?unknown=1'],
    ];
    it.each(cases)('%s: %s %s lets exactly max of 3 × max through', async (name, method, path, body) => {
      const max = scaled(LIMIT_CLASSES[name].perUser, multiplier)!.max;
      const user = await createTestUser(rt, name);
      const as = client(runtime, user);
      const { passed, refused } = await burst(3 * max, () => as(method, path, body));
      expect(passed).toBe(max);
      expect(refused).toHaveLength(2 * max);
      expect(Number(refused[0]!.headers.get('retry-after'))).toBe(LIMIT_CLASSES[name].perUser.windowSeconds);
    });

    it('public and webhook routes count per address', async () => {
      for (const [name, method, path] of [
        ['public', 'GET', '/badges/definitions'],
        ['webhook', 'POST', '/api/payment/webhook'],
      ] as const) {
        const max = scaled(LIMIT_CLASSES[name].perAddress, multiplier)!.max;
        const anonymous = client(runtime, null);
        const { passed, refused } = await burst(max + 10, () =>
          anonymous(method, path, method === 'GET' ? undefined : {}),
        );
        expect(passed, name).toBe(max);
        expect(refused, name).toHaveLength(10);
      }
    });

    it('counts new Idempotency-Keys per user (over an hour, within the per-minute write budget)', async () => {
      const keys = scaled(IDEMPOTENCY_KEYS_PER_USER, multiplier)!.max;
      const perMinute = scaled(LIMIT_CLASSES.write.perUser, multiplier)!.max;
      const user = await createTestUser(rt, 'keys');
      const as = client(runtime, user);
      const statuses: number[] = [];
      let retryAfter: string | null = null;
      for (let minute = 0; statuses.length < keys + perMinute; minute++) {
        const answers = await Promise.all(
          Array.from({ length: perMinute }, (_, i) =>
            as('POST', '/runs', runBody(`2026-11-18T0${minute % 10}:${String(i * 5).padStart(2, '0')}:00Z`, 1), {
              'idempotency-key': randomUUID(),
            }),
          ),
        );
        statuses.push(...answers.map((a) => a.status));
        retryAfter = answers.find((a) => a.status === 429)?.headers.get('retry-after') ?? retryAfter;
        rt.clock.advance(60_000);
      }
      expect(statuses.filter((s) => s !== 429)).toHaveLength(keys);
      // The key budget's hour, not the write class's minute.
      expect(Number(retryAfter)).toBeGreaterThan(60);
    });
  },
);
