import pino from 'pino';
import { createPostgresEventStore } from '../../../../app-server/adapters/event-store/postgres/postgres-event-store.ts';
import { sessionJson } from '../../../../app-server/auth/auth-core.ts';
import { createAuthCore } from '../../../../app-server/auth/auth-module.ts';
import { systemClock } from '../../../../app-server/clock.ts';
import type { Config } from '../../../../app-server/config.ts';
import { openDatabase } from '../../../../app-server/db/database.ts';
import { inParallel } from '../seed/in-parallel.ts';

/**
 * Signs users in without the HTTP sign-in: a session row and an access token made by the product's own auth service
 * (session store, token service, signing keys) opened on the same database as the server process, with the same
 * configuration. The server verifies them exactly as it verifies a password sign-in's tokens: signature against the
 * keys in the database, then the live session row. Going through POST /auth/v1/token instead would hit the
 * per-IP sign-in limit (the bench is one address) and an Argon2 hash per user; neither is what the bench measures.
 */
export async function mintAccessTokens(config: Config, userIds: readonly string[]): Promise<Map<string, string>> {
  const database = await openDatabase({ databaseUrl: config.DATABASE_URL, poolSize: 4 });
  const store = createPostgresEventStore(database);
  const core = createAuthCore({ config, clock: systemClock, logger: pino({ level: 'silent' }), database, store });
  const tokens = new Map<string, string>();
  try {
    await inParallel(userIds, 4, async (userId) => {
      const user = await core.users.byId(userId);
      if (!user) throw new Error(`no seeded user ${userId}`);
      const { session, refreshToken } = await core.sessions.create({
        userId,
        method: 'password',
        userAgent: 'stridestake-bench',
      });
      tokens.set(userId, (await sessionJson(core, user, session, refreshToken)).access_token);
    });
    return tokens;
  } finally {
    await store.close();
    await database.close();
  }
}
