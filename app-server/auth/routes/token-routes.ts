import { Hono } from 'hono';
import type { AuthEnv } from '../auth-env.ts';
import { authErrors } from '../auth-error.ts';
import { type AuthCore, ipOf, sessionJson, signIn } from '../auth-core.ts';
import { AUTH_LIMITS, hitAll } from '../rate-limiter.ts';
import { normaliseEmail, readBody } from '../request.ts';

/**
 * Sign-in throttling. Every attempt takes a slot under each of its limits BEFORE the password is checked (see
 * RateLimiter), so parallel guesses cannot outrun the counters: failures count per (IP, account), per IP, and per
 * account from addresses the owner never signed in from. The owner signing in from a usual address is not counted
 * or refused by the per-account limit, and mailed links always work, so guessing cannot lock the owner out.
 * Known and unknown addresses take the same slots and one Argon2 verification each (no enumeration).
 */
async function passwordGrant(core: AuthCore, c: Parameters<typeof signIn>[1], body: Record<string, unknown>) {
  if (body.email === undefined && body.phone !== undefined)
    throw authErrors.notSupported('phone_provider_disabled', 'Phone sign-in');
  if (typeof body.password !== 'string' || body.password === '')
    throw authErrors.validation('password: Password is required');
  const email = normaliseEmail(body.email);
  const ip = ipOf(core, c);
  const user = await core.users.byEmail(email);
  const usual = await core.sources.isUsual(user?.id ?? '', ip);
  const pairKey = `signin:pair:${ip}:${email}`;
  const ipKey = `signin:ip:${ip}`;
  const accountKey = `signin:account:${email}`;
  const { refused, taken } = await hitAll(core.limiter, [
    [ipKey, AUTH_LIMITS.signInFailuresPerIp],
    [pairKey, AUTH_LIMITS.signInFailuresPerIpAndAccount],
    ...(usual ? [] : [[accountKey, AUTH_LIMITS.signInFailuresPerAccountFromNewAddresses] as const]),
  ]);
  if (refused) {
    throw authErrors.rateLimited(`Too many sign-in attempts. Please wait ${refused.retryAfter} seconds and try again.`);
  }
  const ok = await core.hasher.verify(user?.passwordHash ?? null, body.password);
  // A failure keeps its slots; a success gives them back and clears this address's count for the account.
  if (!user || !ok) throw authErrors.invalidCredentials();
  for (const [key, slot] of taken) if (key !== pairKey) await core.limiter.release(key, slot);
  await core.limiter.reset(pairKey);
  // Only someone who knows the password learns that the address is unconfirmed.
  if (!user.emailConfirmedAt) throw authErrors.emailNotConfirmed();
  return signIn(core, c, user, 'password');
}

/**
 * The issuers GoTrue names for its built-in ID-token providers (internal/api/token_oidc.go, `getProvider`; Apple's is
 * read from the token there, this is the one it finds in a genuine Apple token).
 */
const ID_TOKEN_ISSUERS: Record<string, string> = {
  apple: 'https://appleid.apple.com',
  google: 'https://accounts.google.com',
  azure: 'https://login.microsoftonline.com/common/v2.0',
  facebook: 'https://www.facebook.com',
  keycloak: '',
  kakao: 'https://kauth.kakao.com',
  vercel_marketplace: 'https://marketplace.vercel.com',
  snapchat: 'https://accounts.snapchat.com/accounts/oauth2/token',
};

/** GoTrue's refusals of the ID-token grant when no provider is enabled, in its order and words. */
function idTokenRefusal(body: Record<string, unknown>) {
  const text = (v: unknown) => (typeof v === 'string' ? v : '');
  if (!text(body.id_token)) return authErrors.validation('id_token required');
  const provider = text(body.provider);
  if (!provider && (!text(body.client_id) || !text(body.issuer))) {
    return authErrors.validation('provider or client_id and issuer required');
  }
  const issuer = Object.hasOwn(ID_TOKEN_ISSUERS, provider)
    ? ID_TOKEN_ISSUERS[provider]
    : Object.entries(ID_TOKEN_ISSUERS).find(([, known]) => known !== '' && known === text(body.issuer))?.[1];
  if (issuer !== undefined) return authErrors.idTokenProviderDisabled(issuer);
  if (provider.startsWith('custom:')) return authErrors.validation('Custom OAuth providers are disabled');
  return authErrors.validation(`Custom OIDC provider ${JSON.stringify(provider)} not allowed`);
}

/** `POST /token?grant_type=password|refresh_token|pkce`; web3 and id_token answer GoTrue's "disabled" refusals. */
export function tokenRoutes(core: AuthCore) {
  return new Hono<AuthEnv>().post('/token', async (c) => {
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
        throw authErrors.web3Disabled();
      case 'id_token':
        throw idTokenRefusal(body);
      default:
        throw authErrors.validation(`Unsupported grant_type: ${grant ?? '(none)'}`);
    }
  });
}
