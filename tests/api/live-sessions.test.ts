import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSessionStore, type SessionStore } from '../../app-server/auth/session-store.ts';
import { databaseTargets, startTestRuntime, type TestRuntime } from '../support/test-runtime.ts';
import { createTestUser, type TestUser } from '../support/users.ts';

/**
 * Remembered sessions (app-server/auth/live-sessions.ts) against the real schema and its triggers, on PGlite and
 * PostgreSQL. Two session stores on one database stand for two API instances: whatever one of them (or an operator in
 * psql) does to end a session, the other's very next check sees, though it remembered the session.
 */
const sessionOf = (token: string) =>
  (JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as { session_id: string }).session_id;

describe.each(databaseTargets())('remembered sessions (%s)', (target) => {
  let runtime: TestRuntime;
  let mine: SessionStore;
  let other: SessionStore;
  beforeAll(async () => {
    runtime = await startTestRuntime(target, { workers: false });
    const options = {
      db: runtime.database.db,
      clock: runtime.clock,
      idleSeconds: runtime.config.AUTH_SESSION_IDLE_HOURS * 3600,
      absoluteSeconds: runtime.config.AUTH_SESSION_MAX_HOURS * 3600,
      reuseGraceSeconds: runtime.config.AUTH_REFRESH_REUSE_GRACE_SECONDS,
    };
    mine = createSessionStore(options);
    other = createSessionStore(options);
  });
  afterAll(() => runtime.close());

  const epoch = async () =>
    Number(
      (await sql<{ epoch: number }>`SELECT epoch FROM auth_session_epoch`.execute(runtime.database.db)).rows[0]!.epoch,
    );

  /** A signed-in user whose session both stores have checked (and so remember). */
  async function remembered(name: string): Promise<TestUser & { sessionId: string }> {
    const user = await createTestUser(runtime, name);
    const sessionId = sessionOf(user.token);
    expect(await mine.activeForUser(sessionId, user.id)).not.toBeNull();
    expect(await other.activeForUser(sessionId, user.id)).not.toBeNull();
    return { ...user, sessionId };
  }

  it('sees a sign-out made through another instance on the next check', async () => {
    const user = await remembered('signout');
    await mine.revoke(user.sessionId);
    expect(await other.activeForUser(user.sessionId, user.id)).toBeNull();
  });

  it('sees every session of a user revoked at once', async () => {
    const user = await remembered('revokeall');
    await mine.revokeAll(user.id);
    expect(await other.activeForUser(user.sessionId, user.id)).toBeNull();
  });

  it('sees an erased account, and a session deleted by hand in SQL', async () => {
    const erased = await remembered('erased');
    await sql`UPDATE auth_users SET deleted_at = now() WHERE id = ${erased.id}`.execute(runtime.database.db);
    expect(await other.activeForUser(erased.sessionId, erased.id)).toBeNull();
    const byHand = await remembered('byhand');
    await sql`DELETE FROM auth_sessions WHERE id = ${byHand.sessionId}`.execute(runtime.database.db);
    expect(await other.activeForUser(byHand.sessionId, byHand.id)).toBeNull();
  });

  it('sees a step-up to aal2 made through another instance', async () => {
    const user = await remembered('stepup');
    const factorId = crypto.randomUUID();
    await sql`INSERT INTO auth_factors (id, user_id, friendly_name, factor_type, status, secret_enc, created_at, updated_at)
      VALUES (${factorId}, ${user.id}, 'phone', 'totp', 'verified', 'x', now(), now())`.execute(runtime.database.db);
    await mine.raiseToAal2(user.sessionId, 'totp', factorId);
    expect((await other.activeForUser(user.sessionId, user.id))?.aal).toBe('aal2');
  });

  it('keeps the epoch through token refreshes, and other sessions live through a sign-out', async () => {
    const staying = await remembered('staying');
    const leaving = await remembered('leaving');
    const before = await epoch();
    await sql`UPDATE auth_sessions SET refreshed_at = now() WHERE id = ${staying.sessionId}`.execute(
      runtime.database.db,
    );
    expect(await epoch()).toBe(before);
    await mine.revoke(leaving.sessionId);
    expect(await epoch()).toBeGreaterThan(before);
    expect(await other.activeForUser(leaving.sessionId, leaving.id)).toBeNull();
    expect(await other.activeForUser(staying.sessionId, staying.id)).not.toBeNull();
  });

  it("never answers for another user's id with a remembered session", async () => {
    const owner = await remembered('owner');
    const intruder = await createTestUser(runtime, 'intruder');
    expect(await other.activeForUser(owner.sessionId, intruder.id)).toBeNull();
  });

  it('answers a burst of checks racing a sign-out: every check that began after it is refused', async () => {
    const user = await remembered('burst');
    const before = Array.from({ length: 20 }, () => other.activeForUser(user.sessionId, user.id));
    await mine.revoke(user.sessionId);
    const after = Array.from({ length: 20 }, () => other.activeForUser(user.sessionId, user.id));
    expect((await Promise.all(before)).length).toBe(20);
    expect(await Promise.all(after)).toEqual(Array.from({ length: 20 }, () => null));
  });
});
