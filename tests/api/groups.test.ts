import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseTargets, startTestRuntime, type TestRuntime } from '../support/test-runtime.ts';
import { createTestUser, freshToken, settle, type TestUser } from '../support/users.ts';

// Wednesday 2026-11-18 12:00 UTC.
describe.each(databaseTargets())('groups API on %s', (target) => {
  let runtime: TestRuntime;
  let alice: TestUser;
  let bob: TestUser;
  let eve: TestUser;
  let groupId: string;
  let code: string;
  const as = (user: TestUser) => (method: string, path: string, body?: unknown) =>
    runtime.request(method, path, { token: user.token, ...(body === undefined ? {} : { body }) });

  /** XP straight into a user's ledger stream, as the awards process would append it. */
  const awardXp = async (userId: string, xp: number) => {
    const now = runtime.clock.now().toISOString();
    await runtime.store.appendToStream(`xp-${userId}`, [
      {
        type: 'XpAwarded',
        data: {
          userId,
          sourceType: 'badge',
          sourceId: randomUUID(),
          xpAmount: xp,
          description: 'test',
          awardedAt: now,
        },
        metadata: {
          eventId: randomUUID(),
          occurredAt: now,
          actorId: null,
          correlationId: 'test',
          causationId: null,
          schemaVersion: 1,
        },
      },
    ]);
  };

  beforeAll(async () => {
    runtime = await startTestRuntime(target, { now: '2026-11-18T12:00:00Z' });
    alice = await createTestUser(runtime, 'alice');
    bob = await createTestUser(runtime, 'bob', 'Asia/Tokyo');
    eve = await createTestUser(runtime, 'eve');
  }, 60_000);
  afterAll(() => runtime?.close());

  it('requires a bearer token', async () => {
    expect((await runtime.request('GET', '/groups')).status).toBe(401);
  });

  it.each([
    [{}, 'Group name must be at least 3 characters'],
    [{ name: '  ab ' }, 'Group name must be at least 3 characters'],
    [{ name: 42 }, 'Group name must be at least 3 characters'],
    [{ name: 'x'.repeat(51) }, 'Group name must be at most 50 characters'],
  ])('refuses to create %j with the spec message', async (body, message) => {
    const res = await as(alice)('POST', '/groups', body);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe(message);
  });

  it('creates a group: the owner is its first member and sees the invite code', async () => {
    const res = await as(alice)('POST', '/groups', { name: '  Morning Crew ' });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      name: 'Morning Crew',
      member_count: 1,
      role: 'owner',
      owner_user_id: alice.id,
    });
    expect(res.body.data.invite_code).toMatch(/^[2-9A-HJ-NP-Z]{8}$/);
    expect(Date.parse(res.body.data.invite_expires_at)).toBeGreaterThan(Date.parse('2026-11-18T12:00:00Z'));
    expect(res.body.data.members).toEqual([
      {
        user_id: alice.id,
        role: 'owner',
        joined_at: '2026-11-18T12:00:00.000Z',
        display_name: 'alice',
        avatar_url: null,
      },
    ]);
    groupId = res.body.data.id;
    code = res.body.data.invite_code;
  });

  it.each([
    [{}, 400, 'Invite code must be 8 characters'],
    [{ invite_code: 'abc' }, 400, 'Invite code must be 8 characters'],
    [{ invite_code: 'ZZZZZZZZ' }, 400, 'Invalid invite code'],
  ])('refuses to join with %j', async (body, status, message) => {
    const res = await as(bob)('POST', '/groups/join', body);
    expect(res.status).toBe(status);
    expect(res.body.error).toBe(message);
  });

  it('joins with the code typed in lower case with spaces; a member does not see the code', async () => {
    const res = await as(bob)('POST', '/groups/join', { invite_code: ` ${code.toLowerCase()} ` });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id: groupId, member_count: 2, role: 'member' });
    expect(res.body.data).not.toHaveProperty('invite_code');
    expect(res.body.data).not.toHaveProperty('invite_expires_at');
    const again = await as(bob)('POST', '/groups/join', { invite_code: code });
    expect(again.status).toBe(409);
    expect(again.body.error).toBe('You are already a member of this group');
  });

  it('lists the caller’s groups with member count and role', async () => {
    const res = await as(bob)('GET', '/groups');
    expect(res.body.groups).toHaveLength(1);
    expect(res.body.groups[0]).toMatchObject({ id: groupId, member_count: 2, role: 'member' });
    expect(res.body.groups[0].members.map((m: { display_name: string }) => m.display_name).sort()).toEqual([
      'alice',
      'bob',
    ]);
    expect((await as(eve)('GET', '/groups')).body.groups).toEqual([]);
  });

  it.each([
    ['GET', ''],
    ['GET', '/leaderboard'],
    ['GET', '/challenges'],
    ['GET', '/recap'],
    ['POST', '/leave'],
    ['POST', '/invite-code'],
  ])('answers a non-member %s /groups/{id}%s with 404', async (method, suffix) => {
    const res = await as(eve)(method, `/groups/${groupId}${suffix}`);
    expect(res.status).toBe(404);
    expect(res.body.error).toBe('Group not found');
    expect((await as(eve)(method, `/groups/${randomUUID()}${suffix}`)).body.error).toBe('Group not found');
  });

  it('orders the leaderboard by level, then XP', async () => {
    await awardXp(alice.id, 150); // level 1
    await awardXp(bob.id, 250); // level 2 (200 XP)
    await settle(runtime);
    const res = await as(alice)('GET', `/groups/${groupId}/leaderboard`);
    expect(
      res.body.data.map((m: { user_id: string; level: number; total_xp: number; rank: number }) => [
        m.user_id,
        m.level,
        m.total_xp,
        m.rank,
      ]),
    ).toEqual([
      [bob.id, 2, 250, 1],
      [alice.id, 1, 150, 2],
    ]);
  });

  it('answers a parallel burst of group reads (members, an outsider, a bad id) each with its own answer', async () => {
    // Each of these reads holds one pooled connection for its transaction (app-server/db/generic-plans.ts): 60 at once
    // on a pool of 5 must queue, not starve or cross answers.
    const suffixes = ['/leaderboard', '/challenges', '/recap'];
    const burst = Array.from({ length: 60 }, (_, i) => {
      const suffix = suffixes[i % 3]!;
      if (i % 4 === 0) return { who: 'outsider', call: as(eve)('GET', `/groups/${groupId}${suffix}`) };
      if (i % 4 === 1) return { who: 'bad id', call: as(alice)('GET', `/groups/x'%3B--${suffix}`) };
      return { who: 'member', call: as(i % 2 === 0 ? alice : bob)('GET', `/groups/${groupId}${suffix}`) };
    });
    const answers = await Promise.all(burst.map(async ({ who, call }) => ({ who, res: await call })));
    for (const { who, res } of answers) {
      if (who === 'outsider') expect([res.status, res.body.error]).toEqual([404, 'Group not found']);
      else if (who === 'bad id') expect(res.status).toBe(400);
      else {
        expect(res.status).toBe(200);
        expect(res.body.success).toBe(true);
      }
    }
    const board = answers.find((a) => a.who === 'member' && Array.isArray(a.res.body.data))!;
    expect(board.res.body.data.map((m: { user_id: string }) => m.user_id).sort()).toEqual([alice.id, bob.id].sort());
  });

  it('refuses a recap week that is not a Monday', async () => {
    for (const week of ['2026-11-17', 'monday', '2026-02-30']) {
      const res = await as(alice)('GET', `/groups/${groupId}/recap?week_start=${week}`);
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('week_start must be a Monday as YYYY-MM-DD');
    }
  });

  it('lets only the owner rotate the code; the old code stops working', async () => {
    const byMember = await as(bob)('POST', `/groups/${groupId}/invite-code`);
    expect(byMember.status).toBe(403);
    expect(byMember.body.error).toBe('Only the group owner can change the invite code');
    const res = await as(alice)('POST', `/groups/${groupId}/invite-code`);
    expect(res.status).toBe(200);
    expect(res.body.data.invite_code).not.toBe(code);
    const old = await as(eve)('POST', '/groups/join', { invite_code: code });
    expect(old.status).toBe(400);
    expect(old.body.error).toBe('Invalid invite code');
    code = res.body.data.invite_code;
  });

  it('refuses the owner leaving; lets a member leave, who then gets 404', async () => {
    const owner = await as(alice)('POST', `/groups/${groupId}/leave`);
    expect(owner.status).toBe(403);
    expect(owner.body.error).toBe('The group owner cannot leave the group');
    const res = await as(bob)('POST', `/groups/${groupId}/leave`);
    expect(res.status).toBe(200);
    expect((await as(bob)('GET', `/groups/${groupId}`)).status).toBe(404);
    expect((await as(alice)('GET', `/groups/${groupId}`)).body.data.member_count).toBe(1);
  });

  it('refuses an expired code', async () => {
    runtime.clock.advance(15 * 86_400_000);
    eve = await freshToken(runtime, eve);
    const res = await as(eve)('POST', '/groups/join', { invite_code: code });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('This invite code has expired');
  });
});
