import { Hono } from 'hono';
import type { AuthEnv } from '../auth-env.ts';
import { authErrors } from '../auth-error.ts';
import { type AuthCore, authenticate } from '../auth-core.ts';

/** `POST /logout?scope=global|local|others`: ends all sessions, this one, or all but this one; 204. */
export function logoutRoutes(core: AuthCore) {
  return new Hono<AuthEnv>().post('/logout', async (c) => {
    const scope = c.req.query('scope') ?? 'global';
    if (scope !== 'global' && scope !== 'local' && scope !== 'others') {
      throw authErrors.validation('scope: must be one of global, local, others');
    }
    const { session, user } = await authenticate(core, c);
    if (scope === 'local') await core.sessions.revoke(session.id);
    else await core.sessions.revokeAll(user.id, scope === 'others' ? session.id : undefined);
    return c.body(null, 204);
  });
}
