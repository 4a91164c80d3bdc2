import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UserCommandContext } from '../../app-server/commands/command-context.ts';
import { actorMetadata } from '../../app-server/commands/event-metadata.ts';
import { appendEvents } from '../../app-server/commands/execute-command.ts';
import { createGroup } from '../../app-server/commands/groups/group-commands.ts';
import { claimIdempotencyKey } from '../../app-server/commands/idempotency/claim-key.ts';
import { claimKeyedRequest } from '../../app-server/commands/idempotency/keyed-request.ts';
import { requestKey } from '../../app-server/commands/idempotency/request-key.ts';
import { databaseTargets, startTestRuntime, type TestRuntime } from '../support/test-runtime.ts';
import { userRequests } from '../support/user-requests.ts';
import { createTestUser, settle, type TestUser } from '../support/users.ts';

const KEY_REUSED = 'This Idempotency-Key was already used for a different request. Use a new key for a new request.';

// Issue 23, item 3: a keyed write runs through KeyedRequest.once (app-server/commands/idempotency/keyed-request.ts),
// which records the command's result in the key's row in the transaction of its events. These tests pin what that
// one mechanism promises, through the API and beneath it, where no content or decider refusal can help it.
describe.each(databaseTargets())('KeyedRequest.once on %s', (target) => {
  let rt: TestRuntime;
  let ana: TestUser;
  let ben: TestUser;
  let cy: TestUser;

  const { post } = userRequests(() => rt);
  const typesOf = async (streamId: string) => (await rt.store.readStream(streamId)).map((e) => e.type);
  const groupsOf = async (user: TestUser) =>
    (await rt.request('GET', '/groups', { token: user.token })).body.groups as { id: string }[];
  const contextOf = (user: TestUser): UserCommandContext => ({
    store: rt.store,
    database: rt.database,
    userId: user.id,
    now: rt.clock.now(),
    correlationId: randomUUID(),
  });
  /** The result the key's row records (null before one is), without the appends recorded beside it. */
  const outcomeOf = async (user: TestUser, key: string) => {
    const { rows } = await sql<{ outcome: { result: unknown } | null }>`
      SELECT outcome FROM idempotency_keys WHERE user_id = ${user.id} AND key = ${key}`.execute(rt.database.db);
    return rows[0]?.outcome?.result ?? rows[0]?.outcome;
  };
  /** Beneath the API no request notes its appends: nothing to record, nothing to give back. */
  const noAppends = { read: () => ({ eventTypes: [], positions: [] }), restore: () => {} };
  /** The key of a request as http/request.ts builds it. */
  const keyOf = (user: TestUser, key: string, route: string, body: unknown) =>
    requestKey({ userId: user.id, key, route, body });

  beforeAll(async () => {
    rt = await startTestRuntime(target, { now: '2026-11-18T12:00:00Z' });
    ana = await createTestUser(rt, 'ana');
    ben = await createTestUser(rt, 'ben');
    cy = await createTestUser(rt, 'cy');
  }, 120_000);
  afterAll(() => rt?.close());

  it('a sequential retry answers the same status and body, and appends nothing', async () => {
    const key = randomUUID();
    const body = { name: 'Morning Loop' };
    const first = await post(ana, '/groups', body, key);
    expect(first.status).toBe(201);
    await settle(rt);
    const head = await rt.store.headPosition({ committed: true });
    const retry = await post(ana, '/groups', body, key);
    expect(retry.status).toBe(201);
    expect(retry.body).toEqual(first.body);
    expect(await rt.store.headPosition({ committed: true })).toEqual(head);
    expect(await typesOf(`group-${first.body.data.id}`)).toEqual(['GroupCreated']);
    // What the retry answered from: the id and the position, recorded with the event.
    expect(await outcomeOf(ana, key)).toMatchObject({ groupId: first.body.data.id, position: expect.any(Object) });
  });

  it('6 twins in parallel: one event, and every answer is the same', async () => {
    const key = randomUUID();
    const body = { name: 'Twin Peaks' };
    const answers = await Promise.all(Array.from({ length: 6 }, () => post(ben, '/groups', body, key)));
    expect(answers.map((a) => a.status)).toEqual(Array(6).fill(201));
    for (const answer of answers) expect(answer.body).toEqual(answers[0]!.body);
    expect(await typesOf(`group-${answers[0]!.body.data.id}`)).toEqual(['GroupCreated']);
    expect(await groupsOf(ben)).toHaveLength(1);
  });

  it('the same key with another body or another route: 422, nothing appended', async () => {
    const key = randomUUID();
    expect((await post(cy, '/groups', { name: 'First Body' }, key)).status).toBe(201);
    await settle(rt);
    const head = await rt.store.headPosition({ committed: true });
    const other = await post(cy, '/groups', { name: 'Second Body' }, key);
    expect(other.status).toBe(422);
    expect(other.body).toEqual({ error: KEY_REUSED });
    expect((await post(cy, '/runs/gps/start', {}, key)).status).toBe(422);
    expect(await rt.store.headPosition({ committed: true })).toEqual(head);
  });

  it('a crash after the commit, before the answer: the retry answers the recorded result', async () => {
    const key = randomUUID();
    const body = { name: 'Lost Answer' };
    const keyed = await claimKeyedRequest(rt.database, keyOf(cy, key, 'POST /groups', body), rt.clock.now(), noAppends);
    const crashed = keyed.once((tx) => createGroup(contextOf(cy), body.name, 20, tx));
    // The events and the result committed; the process died before it could answer.
    await expect(
      crashed.then(() => {
        throw new Error('the process died before answering');
      }),
    ).rejects.toThrow('the process died before answering');
    const recorded = (await outcomeOf(cy, key)) as { groupId: string };
    expect(await typesOf(`group-${recorded.groupId}`)).toEqual(['GroupCreated']);
    const retry = await post(cy, '/groups', body, key);
    expect(retry.status).toBe(201);
    expect(retry.body.data.id).toBe(recorded.groupId);
    expect(await typesOf(`group-${recorded.groupId}`)).toEqual(['GroupCreated']);
  });

  it('a failure before the commit records nothing: the retry runs the command', async () => {
    const key = randomUUID();
    const body = { name: 'Second Try' };
    const before = (await groupsOf(ana)).length;
    const keyed = await claimKeyedRequest(
      rt.database,
      keyOf(ana, key, 'POST /groups', body),
      rt.clock.now(),
      noAppends,
    );
    await expect(
      keyed.once(async (tx) => {
        await createGroup(contextOf(ana), body.name, 20, tx);
        throw new Error('the database went away before the commit');
      }),
    ).rejects.toThrow('before the commit');
    expect(await outcomeOf(ana, key)).toBeNull();
    expect(await groupsOf(ana)).toHaveLength(before);
    const retry = await post(ana, '/groups', body, key);
    expect(retry.status).toBe(201);
    expect(await groupsOf(ana)).toHaveLength(before + 1);
  });

  it('beneath the API: twins that would each append (expected version "any") append once, and run the work once', async () => {
    const key = randomUUID();
    const stream = `probe-${randomUUID()}`;
    const request = keyOf(ana, key, 'POST /probe', { n: 1 });
    let runs = 0;
    const twin = async () => {
      const keyed = await claimKeyedRequest(rt.database, request, rt.clock.now(), noAppends);
      return keyed.once(async (tx) => {
        runs += 1;
        // Long enough for every twin to arrive while the first is still open (PostgreSQL; PGlite runs them in turn).
        await sql`SELECT pg_sleep(0.1)`.execute(tx);
        const metadata = actorMetadata(ana.id, randomUUID(), rt.clock.now());
        const appended = await appendEvents(
          rt.store,
          stream,
          [{ type: 'ProbeAppended', data: { run: runs } }],
          metadata,
          'any',
          tx,
        );
        return { position: appended!.position, run: runs };
      });
    };
    const answers = await Promise.all(Array.from({ length: 8 }, twin));
    expect(await typesOf(stream)).toEqual(['ProbeAppended']);
    expect(runs).toBe(1);
    for (const answer of answers) expect(answer).toEqual(answers[0]);
    // A retry much later: the recorded result, the work not run.
    expect(await twin()).toEqual(answers[0]);
    expect(runs).toBe(1);
  });

  it("a claim that waited for its twin's first use of the key reads the twin's row, and answers its outcome", async () => {
    const key = randomUUID();
    const request = keyOf(ana, key, 'POST /groups', { name: 'Twins' });
    // The twin: its claim inserted the row and recorded its outcome, not yet committed.
    let commitTwin = () => {};
    const twinCommitted = new Promise<void>((resolve) => (commitTwin = resolve));
    let twinInserted = () => {};
    const inserted = new Promise<void>((resolve) => (twinInserted = resolve));
    const twin = rt.database.db.transaction().execute(async (tx) => {
      await sql`
        INSERT INTO idempotency_keys (user_id, key, route, fingerprint, created_at, outcome)
        VALUES (${ana.id}, ${key}, ${request.route}, ${request.fingerprint}, ${rt.clock.now()}, '{"twin": true}'::jsonb)
      `.execute(tx);
      twinInserted();
      await twinCommitted;
    });
    // The claim starts once the twin's row is in (not yet committed); before that, the claim could insert it first.
    await inserted;
    // On PostgreSQL this claim's insert waits for the twin's row; its statement's snapshot, taken before the twin
    // commits, cannot see that row. (PGlite runs one transaction at a time: there it simply comes second.)
    const claim = claimIdempotencyKey(rt.database.db, request, rt.clock.now());
    await new Promise((resolve) => setTimeout(resolve, 200));
    commitTwin();
    await twin;
    expect(await claim).toEqual({ twin: true });
  });
});
