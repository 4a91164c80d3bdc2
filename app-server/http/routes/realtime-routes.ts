import { type Context, Hono } from 'hono';
import { streamSSE } from 'hono/streaming';
import type { ChangeTopic } from '../../../projections/runner/projector.ts';
import type { AuthCore } from '../../auth/auth-core.ts';
import { AuthApiError } from '../../auth/auth-error.ts';
import type { AppDeps } from '../app.ts';
import type { AppEnv } from '../app-env.ts';
import { HttpError } from '../errors.ts';
import { RealtimeQuery } from '../openapi/gamification-schemas.ts';
import { parseOr400 } from '../openapi/parse.ts';

/** Comment lines keep proxies and load balancers from closing an idle stream (most cut at 60 s). */
export const HEARTBEAT_MS = 25_000;

/**
 * The bearer token from the Authorization header or, because a browser's EventSource cannot send headers, from
 * `?access_token=`. Verified like the product guard: signature, claims and a live session.
 */
async function streamUser(core: AuthCore, c: Context<AppEnv>, queryToken: string | undefined): Promise<string> {
  const header = /^Bearer\s+(\S+)$/i.exec(c.req.header('authorization') ?? '')?.[1];
  const token = header ?? queryToken;
  if (!token) throw new HttpError(401, 'Missing bearer token');
  try {
    const claims = await core.tokens.verify(token);
    const session = await core.sessions.active(claims.session_id);
    if (!session || session.userId !== claims.sub) throw new HttpError(401, 'Session expired or signed out');
    return claims.sub;
  } catch (error) {
    if (error instanceof AuthApiError) throw new HttpError(401, 'Invalid access token');
    throw error;
  }
}

/**
 * GET /realtime: Server-Sent Events telling a user which of their lists changed (`event: changed`,
 * `data: {"topics":["runs","goals"]}`), after the projections committed them, whichever API instance or worker
 * ran them (they arrive by NOTIFY through the ChangeHub). The client refetches; nothing else travels here.
 */
export function realtimeRoutes(deps: AppDeps) {
  return new Hono<AppEnv>().get('/realtime', async (c) => {
    const query = parseOr400(RealtimeQuery, c.req.query());
    const userId = await streamUser(deps.auth, c, query.access_token);
    c.header('Cache-Control', 'no-cache, no-transform');
    // Stops nginx-style proxies from buffering the stream.
    c.header('X-Accel-Buffering', 'no');
    return streamSSE(c, async (stream) => {
      let writing = Promise.resolve();
      const send = (event: string, data: unknown) => {
        writing = writing.then(() => stream.writeSSE({ event, data: JSON.stringify(data) })).catch(() => {});
      };
      const unsubscribe = deps.changes.subscribe(userId, (topics: readonly ChangeTopic[]) =>
        send('changed', { topics }),
      );
      const closed = new Promise<void>((resolve) => stream.onAbort(resolve));
      const heartbeat = setInterval(() => {
        writing = writing
          .then(() => stream.write(': heartbeat\n\n'))
          .then(
            () => undefined,
            () => undefined,
          );
      }, HEARTBEAT_MS);
      try {
        send('ready', { user_id: userId });
        await closed;
      } finally {
        clearInterval(heartbeat);
        unsubscribe();
      }
    });
  });
}
