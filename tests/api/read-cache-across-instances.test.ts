import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSecondInstance } from '../support/second-instance.ts';
import { startTestRuntime, type TestRuntime } from '../support/test-runtime.ts';
import { createTestUser, runBody, settle, type TestUser } from '../support/users.ts';

/**
 * Two API instances on one PostgreSQL database (app-server/http/read-cache.ts): a change written through the first is
 * in the very next read through the second, whose cache held the answer before. The second hears of the change only
 * through the read models' NOTIFY; its LISTEN round trip before a hit is what makes "the very next read" exact.
 */
const postgres = process.env.DATABASE_URL ? ['postgres' as const] : [];

describe.each(postgres)('the read cache across two instances on %s', (target) => {
  let first: TestRuntime;
  let second: Awaited<ReturnType<typeof startSecondInstance>>;
  let alice: TestUser;
  let bob: TestUser;
  let groupId: string;
  const write = (user: TestUser) => (method: string, path: string, body?: unknown) =>
    first.request(method, path, { token: user.token, ...(body === undefined ? {} : { body }) });
  const read = (user: TestUser, path: string) => second.request('GET', path, { token: user.token });
  /** Reads twice through the second instance; the second answer must be a cache hit equal to the first. */
  const warm = async (user: TestUser, path: string) => {
    const answer = await read(user, path);
    expect(answer.status).toBe(200);
    const before = second.runtime.readCache?.stats.hits ?? 0;
    expect((await read(user, path)).body).toEqual(answer.body);
    // The challenges answer is two entries: the members as they are, and their figures.
    expect(second.runtime.readCache?.stats.hits).toBe(before + (path.endsWith('/challenges') ? 2 : 1));
    return answer.body;
  };

  beforeAll(async () => {
    first = await startTestRuntime(target, { now: '2026-11-18T17:00:00Z' });
    second = await startSecondInstance(first);
    alice = await createTestUser(first, 'alice');
    bob = await createTestUser(first, 'bob');
    const group = await write(alice)('POST', '/groups', { name: 'Two Instances' });
    groupId = group.body.data.id;
    await write(bob)('POST', '/groups/join', { invite_code: group.body.data.invite_code });
  }, 120_000);
  afterAll(async () => {
    await second?.close();
    await first?.close();
  });

  it('GET /goals/current through the other instance shows each run logged at once', async () => {
    expect((await write(alice)('POST', '/goals', { type: 'distance', target_value: 20 })).status).toBe(201);
    for (let km = 1; km <= 4; km++) {
      const progress = (await warm(alice, '/goals/current')).data.progress;
      const at = new Date(Date.parse('2026-11-18T08:00:00Z') + km * 3_600_000).toISOString();
      expect((await write(alice)('POST', '/runs', runBody(at, km))).status).toBe(201);
      expect((await read(alice, '/goals/current')).body.data.progress).toBe(progress + km);
    }
  });

  it('GET /runs through the other instance shows a logged run and a deletion at once', async () => {
    const before = (await warm(alice, '/runs?limit=20')).data.length;
    const posted = await write(alice)('POST', '/runs', runBody('2026-11-18T07:00:00Z', 2));
    expect(posted.status).toBe(201);
    expect((await read(alice, '/runs?limit=20')).body.data).toHaveLength(before + 1);
    await warm(alice, '/runs?limit=20');
    expect((await write(alice)('DELETE', `/runs/${posted.body.data.id}`)).status).toBe(200);
    expect((await read(alice, '/runs?limit=20')).body.data).toHaveLength(before);
  });

  it('GET /feed through the other instance shows a reaction made through the first at once', async () => {
    await settle(first);
    const feed = `/feed?group_id=${groupId}&filter=runs`;
    const cards = (await warm(bob, feed)).data;
    expect(cards.length).toBeGreaterThan(0);
    for (const emoji of ['thumbs_up', 'clap', 'fire'] as const) {
      const card = (await warm(bob, feed)).data[0];
      expect((await write(bob)('POST', `/feed/${card.id}/reactions`, { emoji })).status).toBe(201);
      const seen = (await read(bob, feed)).body.data.find((e: { id: string }) => e.id === card.id);
      expect(seen.reactions[emoji]).toBe(card.reactions[emoji] + 1);
    }
  });
  it('GET /groups/:id/challenges through the other instance shows a group mate’s run at once', async () => {
    await settle(first);
    const path = `/groups/${groupId}/challenges`;
    const bobs = (data: { weeklyDistance: { user_id: string; distance_km: number }[] }) =>
      data.weeklyDistance.find((r) => r.user_id === bob.id)?.distance_km;
    const before = bobs((await warm(alice, path)).data)!;
    expect((await write(bob)('POST', '/runs', runBody('2026-11-18T06:00:00Z', 3))).status).toBe(201);
    expect(bobs((await read(alice, path)).body.data)).toBe(before + 3);
  });
});
