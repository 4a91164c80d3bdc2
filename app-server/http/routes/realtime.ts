import { z } from 'zod';
import { type Context, Hono } from 'hono';
import { streamSSE } from 'hono/streaming';
import type { ChangeTopic } from '../../../projections/engine/projector.ts';
import type { AuthCore } from '../../auth/auth-core.ts';
import { AuthApiError } from '../../auth/auth-error.ts';
import type { AppDeps } from '../app.ts';
import type { AppEnv } from '../app-env.ts';
import { HttpError } from '../errors.ts';
import { parseRequest } from '../request.ts';

/** Query of GET /realtime: the token for EventSource clients, which cannot send headers. */
export const RealtimeQuery = z.strictObject({ access_token: z.string().min(1).max(4096).optional() });

/** Comment lines keep proxies and load balancers from closing an idle stream (most cut at 60 s). */
export const HEARTBEAT_MS = 25_000;

/** Who a stream is for, and until when: the access token's expiry and the session it belongs to. */
interface StreamGrant {
  readonly userId: string;
  readonly sessionId: string;
  /** The access token's `exp`, in epoch ms. */
  readonly expiresAtMs: number;
}

/**
 * The bearer token from the Authorization header or, because a browser's EventSource cannot send headers, from
 * `?access_token=`. Verified like the product guard: signature, claims and a live session.
 */
async function streamGrant(core: AuthCore, c: Context<AppEnv>, queryToken: string | undefined): Promise<StreamGrant> {
  const header = /^Bearer\s+(\S+)$/i.exec(c.req.header('authorization') ?? '')?.[1];
  const token = header ?? queryToken;
  if (!token) throw new HttpError(401, 'Missing bearer token');
  try {
    const claims = await core.tokens.verify(token);
    const session = await core.sessions.active(claims.session_id);
    if (!session || session.userId !== claims.sub) throw new HttpError(401, 'Session expired or signed out');
    return { userId: claims.sub, sessionId: claims.session_id, expiresAtMs: claims.exp * 1000 };
  } catch (error) {
    if (error instanceof AuthApiError) throw new HttpError(401, 'Invalid access token');
    throw error;
  }
}

/** Why a stream must end: its token expired, or its session ended (sign-out, global sign-out, deletion). */
export type StreamEnd = 'token_expired' | 'signed_out';

/** Whether the grant still holds now; checked before every delivery, at every heartbeat and at the token's expiry. */
async function endOf(deps: AppDeps, grant: StreamGrant): Promise<StreamEnd | null> {
  if (deps.clock.now().getTime() >= grant.expiresAtMs) return 'token_expired';
  const session = await deps.auth.sessions.active(grant.sessionId);
  return session && session.userId === grant.userId ? null : 'signed_out';
}

/**
 * GET /realtime: Server-Sent Events telling a user which of their lists changed (`event: changed`,
 * `data: {"topics":["runs","goals"]}`), after the projections committed them, whichever API instance or worker
 * ran them (they arrive by NOTIFY through the ChangeHub). The client refetches; nothing else travels here.
 * A stream lives as long as the token that opened it: when the token expires or its session is signed out, the
 * next delivery, heartbeat or the expiry itself sends `event: expired` (`{"reason":"token_expired"|"signed_out"}`)
 * instead and closes the stream; the client reconnects with its fresh token.
 */
export function realtimeRoutes(deps: AppDeps) {
  // Streams open per user on this instance. Per instance (documented in the README): a stream lives on the instance
  // that holds its socket, and the count drops in the same process when the stream closes, so it can never leak
  // past a crash; opening streams is also counted in the database (the `stream` limit class), across instances.
  const open = new Map<string, number>();
  const maxStreams = deps.config.REALTIME_MAX_STREAMS_PER_USER;
  return new Hono<AppEnv>().get('/realtime', async (c) => {
    const query = parseRequest(RealtimeQuery, c.req.query());
    const grant = await streamGrant(deps.auth, c, query.access_token);
    // Checked and counted with no await in between: a parallel burst gets exactly `maxStreams`.
    const held = open.get(grant.userId) ?? 0;
    if (held >= maxStreams) {
      c.header('Retry-After', String(STREAM_RETRY_SECONDS));
      throw new HttpError(
        429,
        `Too many live-update streams open (at most ${maxStreams}). Close one, or try again in ${STREAM_RETRY_SECONDS} seconds.`,
        { code: 'too_many_streams' },
      );
    }
    open.set(grant.userId, held + 1);
    const closeOne = () => {
      const left = (open.get(grant.userId) ?? 1) - 1;
      if (left <= 0) open.delete(grant.userId);
      else open.set(grant.userId, left);
    };
    c.header('Cache-Control', 'no-cache, no-transform');
    // Stops nginx-style proxies from buffering the stream.
    c.header('X-Accel-Buffering', 'no');
    return streamSSE(c, async (stream) => {
      let finish: () => void = () => {};
      const closed = new Promise<void>((resolve) => {
        finish = resolve;
        stream.onAbort(resolve);
      });
      let ended = false;
      // One queue for every write, so events keep their order and nothing is written after `expired`.
      let queue = Promise.resolve();
      const enqueue = (write: () => Promise<unknown>) => {
        queue = queue
          .then(async () => {
            if (ended) return;
            const end = await endOf(deps, grant);
            if (end === null) return void (await write());
            ended = true;
            await stream.writeSSE({ event: 'expired', data: JSON.stringify({ reason: end }) });
          })
          .catch(() => {})
          .then(() => {
            if (ended) finish();
          });
      };
      const unsubscribe = deps.changes.subscribe(grant.userId, (topics: readonly ChangeTopic[]) =>
        enqueue(() => stream.writeSSE({ event: 'changed', data: JSON.stringify({ topics }) })),
      );
      const heartbeat = setInterval(() => enqueue(() => stream.write(': heartbeat\n\n')), HEARTBEAT_MS);
      // The expiry itself ends the stream even when nothing else happens (delay from the injected clock).
      const expiry = setTimeout(
        () => enqueue(async () => {}),
        Math.min(Math.max(0, grant.expiresAtMs - deps.clock.now().getTime()), MAX_TIMER_MS),
      );
      try {
        enqueue(() => stream.writeSSE({ event: 'ready', data: JSON.stringify({ user_id: grant.userId }) }));
        await closed;
      } finally {
        clearInterval(heartbeat);
        clearTimeout(expiry);
        unsubscribe();
        closeOne();
      }
    });
  });
}

/** What a refused stream is told to wait: a client reconnecting sooner would only be refused again. */
const STREAM_RETRY_SECONDS = 30;

/** setTimeout's longest delay (about 24.8 days); a token never lives that long, but the bound keeps it safe. */
const MAX_TIMER_MS = 2 ** 31 - 1;
