import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { healthRoutes } from '../../app-server/http/routes/health.ts';
import type { NewEvent } from '../../domain/shared/event-store.ts';
import { databaseTargets, startTestRuntime, type TestRuntime } from '../support/test-runtime.ts';
import { createTestUser, runBody, type TestUser } from '../support/users.ts';

/** A run-notes change the runs table cannot hold (a NUL character): stored, then refused by the runs projection. */
function poisonNotes(): { streamId: string; event: NewEvent } {
  const runId = randomUUID();
  const eventId = randomUUID();
  return {
    streamId: `run-${runId}`,
    event: {
      type: 'RunNotesEdited',
      data: { runId, userId: randomUUID(), notes: 'a\u0000b', editedAt: '2026-11-18T12:00:00Z' },
      metadata: {
        eventId,
        occurredAt: '2026-11-18T12:00:00Z',
        actorId: null,
        correlationId: eventId,
        causationId: null,
        schemaVersion: 1,
      },
    },
  };
}

/**
 * An event the groups projection (asynchronous) cannot apply: its invite expiry is no instant. The store keeps it (it
 * checks no shapes); only the projection refuses it.
 */
function poisonGroup(): { streamId: string; event: NewEvent } {
  const groupId = randomUUID();
  const eventId = randomUUID();
  return {
    streamId: `group-${groupId}`,
    event: {
      type: 'GroupCreated',
      data: {
        groupId,
        name: 'Poisoned',
        ownerId: randomUUID(),
        inviteCode: 'ABCDEFGH',
        inviteExpiresAt: 'never',
        createdAt: '2026-11-18T12:00:00Z',
      },
      metadata: {
        eventId,
        occurredAt: '2026-11-18T12:00:00Z',
        actorId: null,
        correlationId: eventId,
        causationId: null,
        schemaVersion: 1,
      },
    },
  };
}

/** Rejects when `promise` takes longer than `ms` (a bound on the wait, not a measured duration). */
function within<T>(ms: number, promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

describe.each(databaseTargets())('health and a poisoned event on %s (projections live)', (target) => {
  let runtime: TestRuntime;
  let alice: TestUser;

  beforeAll(async () => {
    runtime = await startTestRuntime(target, { now: '2026-11-18T12:00:00Z' });
    alice = await createTestUser(runtime, 'alice');
  }, 60_000);
  afterAll(() => runtime?.close());

  it('answers 200 ok, naming the database, its LISTEN connections and every read model', async () => {
    // The sign-up just appended events: the read models are `catching_up` until they have applied them.
    await expect.poll(async () => (await runtime.request('GET', '/health')).body.status, { timeout: 5_000 }).toBe('ok');
    const res = await runtime.request('GET', '/health');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'ok', problems: [], database: { kind: target, ok: true } });
    expect(res.body.projections).toHaveLength(9);
    for (const p of res.body.projections) expect(p).toMatchObject({ state: 'ok', lag: 0, poisoned: 0 });
    // On PostgreSQL the event store's and the realtime hub's LISTEN connections; PGlite's are in-process.
    const channels = res.body.listen.map((l: { channel: string }) => l.channel).sort();
    expect(channels).toEqual(target === 'postgres' ? ['es_appended', 'realtime_changes'] : []);
  });

  it('refuses an event the inline runs read model cannot apply with its append: nothing is saved', async () => {
    const poison = poisonNotes();
    await expect(runtime.store.appendToStream(poison.streamId, [poison.event])).rejects.toThrow();
    expect(await runtime.store.readStream(poison.streamId)).toEqual([]);
  });

  it("one user's poisoned event does not stop another user's writes; /health says 503 until an operator skips it", async () => {
    const poison = poisonGroup();
    await runtime.store.appendToStream(poison.streamId, [poison.event]);
    const saved = await within(
      3_000,
      runtime.request('POST', '/runs', { token: alice.token, body: runBody('2026-11-17T08:00:00Z', 5) }),
    );
    expect(saved.status).toBe(201);
    const group = await within(
      3_000,
      runtime.request('POST', '/groups', { token: alice.token, body: { name: 'Dawn Patrol' } }),
    );
    expect(group.status).toBe(201);
    await expect
      .poll(async () => (await runtime.request('GET', '/runs', { token: alice.token })).body.data.length, {
        timeout: 3_000,
      })
      .toBe(1);

    // Wait for the groups read model to have passed everything, poisoned event included.
    await expect
      .poll(
        async () =>
          (await runtime.request('GET', '/health')).body.projections.find((p: { name: string }) => p.name === 'groups')
            ?.lag,
        { timeout: 5_000 },
      )
      .toBe(0);
    const health = await runtime.request('GET', '/health');
    expect(health.status).toBe(503);
    expect(health.body.status).toBe('degraded');
    expect(health.body.problems).toEqual([
      { component: 'projection', name: 'groups', reason: 'poisoned', detail: '1 poisoned event(s)' },
    ]);
    expect(health.body.projections.find((p: { name: string }) => p.name === 'groups')).toMatchObject({
      state: 'poisoned',
      lag: 0,
      poisoned: 1,
    });

    const [poisoned] = await runtime.projections.poisoned({ status: ['poisoned'] });
    expect(poisoned).toMatchObject({
      eventId: poison.event.metadata.eventId,
      projection: 'groups',
      eventType: 'GroupCreated',
    });
    expect(await runtime.projections.skipPoisoned(poisoned!.id)).toBe(true);
    const after = await runtime.request('GET', '/health');
    expect(after.status).toBe(200);
    expect(after.body.problems).toEqual([]);
  });
});

describe.each(databaseTargets())('health of read models that stand still on %s (workers off)', (target) => {
  let runtime: TestRuntime;

  beforeAll(async () => {
    runtime = await startTestRuntime(target, {
      workers: false,
      config: { HEALTH_MAX_LAG_EVENTS: 3, HEALTH_MAX_LAG_SECONDS: 1 },
    });
  }, 60_000);
  afterAll(() => runtime?.close());

  const note = async () => {
    const id = randomUUID();
    await runtime.store.appendToStream(`probe-${id}`, [
      {
        type: 'ProbeRecorded',
        data: {},
        metadata: {
          eventId: id,
          occurredAt: '2026-11-18T12:00:00Z',
          actorId: null,
          correlationId: id,
          causationId: null,
          schemaVersion: 1,
        },
      },
    ]);
  };

  // On PostgreSQL a new event becomes readable once every older transaction of the cluster has ended, so each check
  // polls until the event shows.
  const healthWith = (limits: { HEALTH_MAX_LAG_EVENTS?: number; HEALTH_MAX_LAG_SECONDS?: number }) => async () => {
    const app = healthRoutes({ ...runtime, config: { ...runtime.config, ...limits } });
    const res = await app.request('/health');
    return {
      status: res.status,
      body: (await res.json()) as { status: string; problems: { name: string; reason: string }[] },
    };
  };

  it('calls read models behind by a fresh event catching up (200), and stuck once that event is older than the limit (503)', async () => {
    await note();
    const patient = healthWith({ HEALTH_MAX_LAG_SECONDS: 3600 });
    await expect
      .poll(async () => (await patient()).body.status, { timeout: 15_000, interval: 100 })
      .toBe('catching_up');
    expect((await patient()).status).toBe(200);
    const strict = healthWith({ HEALTH_MAX_LAG_SECONDS: 1 });
    await expect.poll(async () => (await strict()).status, { timeout: 15_000, interval: 250 }).toBe(503);
    const { problems } = (await strict()).body;
    expect(new Set(problems.map((p) => p.reason))).toEqual(new Set(['stuck']));
    expect(problems.map((p) => p.name).sort()).toEqual([
      'feed',
      'gamification',
      'goal-pauses',
      'goals',
      'groups',
      'log-stats',
      'runs',
      'stakes',
      'surges',
    ]);
  });

  it('calls a read model HEALTH_MAX_LAG_EVENTS behind lagging, and answers 200 again once it caught up', async () => {
    await note();
    await note();
    const lagging = healthWith({ HEALTH_MAX_LAG_EVENTS: 3, HEALTH_MAX_LAG_SECONDS: 3600 });
    await expect.poll(async () => (await lagging()).status, { timeout: 15_000, interval: 100 }).toBe(503);
    expect((await lagging()).body.problems).toContainEqual({
      component: 'projection',
      name: 'runs',
      reason: 'lagging',
      detail: '3+ events behind',
    });
    await runtime.projections.catchUp();
    const healthy = await runtime.request('GET', '/health');
    expect(healthy.status).toBe(200);
    expect(healthy.body.status).toBe('ok');
  });

  it('answers 503 naming a lost LISTEN connection', async () => {
    const database = {
      ...runtime.database,
      listenStatus: () => [{ channel: 'es_appended', connected: false, reconnects: 2 }],
    };
    const app = healthRoutes({ database, projections: runtime.projections, config: runtime.config });
    const res = await app.request('/health');
    expect(res.status).toBe(503);
    const body = (await res.json()) as { problems: unknown[]; listen: unknown[] };
    expect(body.problems).toContainEqual({
      component: 'listen',
      name: 'es_appended',
      reason: 'lost',
      detail: 'reconnecting',
    });
    expect(body.listen).toEqual([{ channel: 'es_appended', connected: false, reconnects: 2 }]);
  });
});
