import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../app-server/db/database.ts';
import { createRuntime, type Runtime } from '../../app-server/runtime.ts';
import { type DatabaseTarget, databaseTargets, startTestRuntime, type TestRuntime } from '../support/test-runtime.ts';
import { logRun, settle, type TestUser, testUser } from './gamification-fixtures.ts';

/** Reads an SSE response until `pattern` shows up (or fails after `ms`). */
function sseReader(response: Response) {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  return {
    async until(pattern: RegExp, ms = 10_000): Promise<string> {
      const deadline = Date.now() + ms;
      while (!pattern.test(text)) {
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`SSE did not show ${pattern} in time; got: ${text}`);
        const chunk = await Promise.race([
          reader.read(),
          new Promise<null>((resolve) => setTimeout(() => resolve(null), left)),
        ]);
        if (chunk?.done) throw new Error(`SSE ended; got: ${text}`);
        if (chunk?.value) text += decoder.decode(chunk.value, { stream: true });
      }
      return text;
    },
    /** Resolves once the server ended the stream (fails after `ms`); returns everything read. */
    async end(ms = 10_000): Promise<string> {
      const deadline = Date.now() + ms;
      for (;;) {
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`SSE still open; got: ${text}`);
        const chunk = await Promise.race([
          reader.read(),
          new Promise<null>((resolve) => setTimeout(() => resolve(null), left)),
        ]);
        if (chunk?.done) return text;
        if (chunk?.value) text += decoder.decode(chunk.value, { stream: true });
      }
    },
    cancel: () => reader.cancel(),
  };
}

describe.each(databaseTargets())('GET /realtime on %s', (target: DatabaseTarget) => {
  let rt: TestRuntime;
  let a: TestUser;
  let b: TestUser;

  beforeAll(async () => {
    rt = await startTestRuntime(target, { now: '2026-11-16T08:00:00Z' });
    a = await testUser(rt, 'ada');
    b = await testUser(rt, 'bob');
    await settle(rt);
  }, 120_000);
  afterAll(async () => rt?.close());

  it('refuses a missing or bad token, and bad query, before streaming', async () => {
    expect((await rt.request('GET', '/realtime')).body).toEqual({ error: 'Missing bearer token' });
    const bad = await rt.request('GET', '/realtime?access_token=nope');
    expect(bad.status).toBe(401);
    expect(bad.body.error).toBe('Invalid access token');
    const extra = await rt.request('GET', '/realtime?topic=runs', { token: await a.token() });
    expect(extra.status).toBe(400);
    expect(extra.body.error).toBe('Unrecognized key: "topic"');
  });

  it('announces the lists a projection changed to that user only, after commit; cleans up on disconnect', async () => {
    const before = rt.changes.connections;
    const mine = await rt.app.request(`/realtime?access_token=${await a.token()}`);
    expect(mine.status).toBe(200);
    expect(mine.headers.get('content-type')).toContain('text/event-stream');
    const theirs = await rt.app.request('/realtime', { headers: { authorization: `Bearer ${await b.token()}` } });
    const stream = sseReader(mine);
    const other = sseReader(theirs);
    await stream.until(/event: ready/);
    await other.until(/event: ready/);
    expect(rt.changes.connections).toBe(before + 2);

    await logRun(rt, a.id, 'rt-1', 5, '2026-11-16T07:00:00Z');
    await stream.until(/event: changed\ndata: \{"topics":\[[^\]]*"xp"/);
    await settle(rt);
    await expect(other.until(/event: changed/, 500)).rejects.toThrow(/did not show/);

    await stream.cancel();
    await other.cancel();
    for (let i = 0; i < 50 && rt.changes.connections !== before; i++) await new Promise((r) => setTimeout(r, 20));
    expect(rt.changes.connections).toBe(before);
  });

  it('stops at the access token expiry: the next change is not delivered, `expired` is sent and the stream ends', async () => {
    const response = await rt.app.request(`/realtime?access_token=${await a.token()}`);
    const stream = sseReader(response);
    await stream.until(/event: ready/);
    rt.clock.advance(rt.config.AUTH_ACCESS_TOKEN_TTL_SECONDS * 1000 + 1000);
    await logRun(rt, a.id, 'rt-expired', 2, '2026-11-16T07:45:00Z');
    const text = await stream.end();
    expect(text).toMatch(/event: expired\ndata: \{"reason":"token_expired"\}/);
    expect(text).not.toMatch(/event: changed/);
  });

  it('stops after a global sign-out: the session is revoked, so nothing more is delivered', async () => {
    const token = await b.token();
    const response = await rt.app.request('/realtime', { headers: { authorization: `Bearer ${token}` } });
    const stream = sseReader(response);
    await stream.until(/event: ready/);
    const signOut = await rt.app.request('/auth/v1/logout?scope=global', {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(signOut.status).toBe(204);
    await logRun(rt, b.id, 'rt-signed-out', 2, '2026-11-16T07:50:00Z');
    const text = await stream.end();
    expect(text).toMatch(/event: expired\ndata: \{"reason":"signed_out"\}/);
    expect(text).not.toMatch(/event: changed/);
    // A new stream with the revoked token is refused.
    expect((await rt.app.request(`/realtime?access_token=${token}`)).status).toBe(401);
  });

  // Two API instances need a shared database server: an embedded PGlite belongs to one process.
  const onSharedServer = target === 'postgres' ? it : () => {};
  onSharedServer('a projection applied by instance A reaches a client connected to instance B', async () => {
    const database = await openDatabase({ databaseUrl: rt.config.DATABASE_URL, poolSize: 2 });
    let other: Runtime | null = null;
    try {
      other = await createRuntime(rt.config, { clock: rt.clock, database, logger: pino({ level: 'silent' }) });
      // B runs no workers: only A projects, and B hears it through NOTIFY.
      const response = await other.app.request(`/realtime?access_token=${await a.token()}`);
      const stream = sseReader(response);
      await stream.until(/event: ready/);
      await logRun(rt, a.id, 'rt-2', 3, '2026-11-16T07:30:00Z');
      await stream.until(/event: changed\ndata: \{"topics":\[[^\]]*"xp"/);
      await stream.cancel();
    } finally {
      await other?.close();
      await database.close();
    }
  });
});
