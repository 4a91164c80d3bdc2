import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../app-env.ts';
import { HttpError } from '../errors.ts';
import { AuthApiError } from '../../auth/auth-error.ts';
import { type AuthCore, authenticateSession } from '../../auth/auth-core.ts';

/**
 * Guard for the product API: the bearer token must verify against our published keys (ES256 only, exp/aud/iss)
 * and belong to a live session. Sets `userId`, `aal` and `sessionId`. Anything else is 401 `{ "error" }`.
 */
export function requireUser(core: AuthCore): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    try {
      const { claims, session } = await authenticateSession(core, c);
      c.set('userId', claims.sub);
      c.set('aal', session.aal);
      c.set('sessionId', session.id);
    } catch (error) {
      if (!(error instanceof AuthApiError)) throw error;
      if (error.code === 'no_authorization') throw new HttpError(401, 'Missing bearer token');
      if (error.code === 'session_not_found') throw new HttpError(401, 'Session expired or signed out');
      throw new HttpError(401, error.message.includes('expired') ? 'Access token expired' : 'Invalid access token');
    }
    await next();
  };
}
