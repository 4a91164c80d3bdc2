import { Hono } from 'hono';
import type { AppEnv } from '../../http/app-env.ts';
import { authErrors } from '../auth-error.ts';
import { type AuthCore, ipOf, sessionJson, signIn } from '../auth-core.ts';
import { AUTH_LIMITS } from '../rate-limiter.ts';
import { normaliseEmail, readBody } from '../request.ts';

/**
 * Sign-in throttling blocks the attacker's IP, never the account: failures count per (IP, account) and per IP, so
 * the owner signing in from elsewhere is never locked out by someone guessing their password.
 */
async function passwordGrant(core: AuthCore, c: Parameters<typeof signIn>[1], body: Record<string, unknown>) {
  if (body.email === undefined && body.phone !== undefined)
    throw authErrors.notSupported('phone_provider_disabled', 'Phone sign-in');
  if (typeof body.password !== 'string' || body.password === '')
    throw authErrors.validation('password: Password is required');
  const email = normaliseEmail(body.email);
  const ip = ipOf(core, c);
  const pairKey = `signin:pair:${ip}:${email}`;
  const ipKey = `signin:ip:${ip}`;
  for (const [key, limit] of [
    [pairKey, AUTH_LIMITS.signInFailuresPerIpAndAccount],
    [ipKey, AUTH_LIMITS.signInFailuresPerIp],
  ] as const) {
    const verdict = await core.limiter.peek(key, limit);
    if (!verdict.allowed) {
      throw authErrors.rateLimited(
        `Too many sign-in attempts. Please wait ${verdict.retryAfter} seconds and try again.`,
      );
    }
  }
  const user = await core.users.byEmail(email);
  let ok = false;
  if (user?.passwordHash) ok = await core.hasher.verify(user.passwordHash, body.password);
  else await core.hasher.verifyDummy(body.password);
  if (!user || !ok) {
    await core.limiter.hit(pairKey, AUTH_LIMITS.signInFailuresPerIpAndAccount);
    await core.limiter.hit(ipKey, AUTH_LIMITS.signInFailuresPerIp);
    throw authErrors.invalidCredentials();
  }
  await core.limiter.reset(pairKey);
  // Only someone who knows the password learns that the address is unconfirmed.
  if (!user.emailConfirmedAt) throw authErrors.emailNotConfirmed();
  return signIn(core, c, user, 'password');
}

/** `POST /token?grant_type=password|refresh_token|pkce`; web3 and id_token answer "not supported". */
export function tokenRoutes(core: AuthCore) {
  return new Hono<AppEnv>().post('/token', async (c) => {
    const grant = c.req.query('grant_type');
    const body = await readBody(c);
    switch (grant) {
      case 'password':
        return c.json(await passwordGrant(core, c, body));
      case 'refresh_token': {
        if (typeof body.refresh_token !== 'string' || body.refresh_token === '') {
          throw authErrors.validation('refresh_token: Refresh token is required');
        }
        const { session, refreshToken } = await core.sessions.rotate(body.refresh_token);
        const user = await core.users.byId(session.userId);
        if (!user) throw authErrors.refreshTokenNotFound();
        return c.json(await sessionJson(core, user, session, refreshToken));
      }
      case 'pkce': {
        if (
          typeof body.auth_code !== 'string' ||
          typeof body.code_verifier !== 'string' ||
          !body.auth_code ||
          !body.code_verifier
        ) {
          throw authErrors.validation('auth_code and code_verifier are required');
        }
        const flow = await core.flows.exchange(body.auth_code, body.code_verifier);
        const user = await core.users.byId(flow.userId);
        if (!user) throw authErrors.flowStateNotFound();
        return c.json(await signIn(core, c, user, flow.authenticationMethod));
      }
      case 'web3':
        throw authErrors.notSupported('provider_disabled', 'Web3 wallet sign-in');
      case 'id_token':
        throw authErrors.notSupported('provider_disabled', 'Sign-in with an ID token');
      default:
        throw authErrors.validation(`Unsupported grant_type: ${grant ?? '(none)'}`);
    }
  });
}
