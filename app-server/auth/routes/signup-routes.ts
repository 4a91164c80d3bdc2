import { randomUUID } from 'node:crypto';
import { isLeft } from 'fp-ts/lib/Either.js';
import { Hono } from 'hono';
import { validateDisplayName, validateTimeZone } from '../../../domain/account/rules.ts';
import type { AppEnv } from '../../http/app-env.ts';
import { authErrors } from '../auth-error.ts';
import { type AuthCore, checkEmailQuota, ipOf, mailToken, redirectOf, userJson } from '../auth-core.ts';
import { AUTH_LIMITS } from '../rate-limiter.ts';
import { checkPassword, normaliseEmail, readBody } from '../request.ts';

/** The profile fields a sign-up carries in `data`: display name (required, §5) and the browser's time zone. */
export function profileFromData(
  data: unknown,
  fallbackName?: string,
): { displayName: string; timezone: string | undefined } {
  const record =
    typeof data === 'object' && data !== null && !Array.isArray(data) ? (data as Record<string, unknown>) : {};
  const rawName = typeof record.display_name === 'string' ? record.display_name : (fallbackName ?? '');
  const name = validateDisplayName(rawName);
  if (isLeft(name)) throw authErrors.validation(name.left.message);
  const rawZone = typeof record.timezone === 'string' ? record.timezone : undefined;
  const zone = validateTimeZone(rawZone);
  if (isLeft(zone)) throw authErrors.validation(zone.left.message);
  return { displayName: name.right, timezone: zone.right };
}

/**
 * `POST /signup`: creates an unconfirmed account (login identity, profile and first event in one transaction) and
 * mails the confirmation link and code. A taken address answers the same 200 with an obfuscated user, as GoTrue
 * does, so sign-up cannot be used to find out who has an account.
 */
export function signupRoutes(core: AuthCore) {
  return new Hono<AppEnv>().post('/signup', async (c) => {
    const body = await readBody(c);
    const ip = ipOf(core, c);
    const perIp = await core.limiter.hit(`signup:ip:${ip}`, AUTH_LIMITS.signUpsPerIp);
    if (!perIp.allowed) {
      throw authErrors.rateLimited(`Too many sign-ups from this network. Try again in ${perIp.retryAfter} seconds.`);
    }
    if (body.phone !== undefined && body.email === undefined) {
      throw authErrors.notSupported('phone_provider_disabled', 'Phone sign-up');
    }
    const email = normaliseEmail(body.email);
    const password = checkPassword(body.password);
    const data = (typeof body.data === 'object' && body.data !== null ? body.data : {}) as Record<string, unknown>;
    const profile = profileFromData(data);
    const redirectTo = redirectOf(core, c);
    const challenge = typeof body.code_challenge === 'string' && body.code_challenge ? body.code_challenge : null;
    const challengeMethod = typeof body.code_challenge_method === 'string' ? body.code_challenge_method : 's256';

    const existing = await core.users.byEmail(email);
    // Hash either way, so the answer takes as long for a taken address as for a new one.
    const passwordHash = await core.hasher.hash(password);
    if (existing) {
      if (!existing.emailConfirmedAt) {
        // The owner may have lost the first mail: send another if the quota allows, silently otherwise.
        try {
          await checkEmailQuota(core, email, ip);
          await mailToken(core, {
            kind: 'signup',
            user: existing,
            to: email,
            redirectTo,
            codeChallenge: challenge,
            codeChallengeMethod: challengeMethod,
          });
        } catch (error) {
          if (!(error instanceof Error && error.name === 'AuthApiError')) throw error;
        }
      }
      const at = core.clock.now().toISOString();
      return c.json({
        id: randomUUID(),
        aud: core.config.AUTH_JWT_AUDIENCE,
        role: 'authenticated',
        email,
        phone: '',
        confirmation_sent_at: at,
        app_metadata: { provider: 'email', providers: ['email'] },
        user_metadata: {},
        identities: [],
        created_at: at,
        updated_at: at,
        is_anonymous: false,
      });
    }
    await checkEmailQuota(core, email, ip);
    const { display_name: _ignored, timezone: _zone, ...metadata } = data;
    const user = await core.users.register({
      email,
      passwordHash,
      displayName: profile.displayName,
      timezone: profile.timezone,
      metadata,
      correlationId: c.get('requestId') ?? randomUUID(),
    });
    await mailToken(core, {
      kind: 'signup',
      user,
      to: email,
      redirectTo,
      codeChallenge: challenge,
      codeChallengeMethod: challengeMethod,
    });
    const sent = await core.users.update(user.id, { confirmation_sent_at: core.clock.now() });
    return c.json(await userJson(core, sent));
  });
}
