import { randomUUID } from 'node:crypto';
import { isLeft } from 'fp-ts/lib/Either.js';
import { Hono } from 'hono';
import { displayNameFromEmail, validateDisplayName, validateTimeZone } from '../../../domain/account/rules.ts';
import type { AuthEnv } from '../auth-env.ts';
import { authErrors } from '../auth-error.ts';
import { type AuthCore, checkEmailQuota, ipOf, mailToken, redirectOf, userJson } from '../auth-core.ts';
import { accountExistsNotice } from '../mail-templates.ts';
import { AUTH_LIMITS } from '../rate-limiter.ts';
import { checkPassword, normaliseEmail, readBody } from '../request.ts';
import type { AuthUser } from '../user-store.ts';

/**
 * The profile fields a sign-up carries in `data`: the display name (the web form requires it, §5; other clients
 * may leave it out, and then it is derived from the e-mail address) and the browser's time zone.
 */
export function profileFromData(data: unknown, email: string): { displayName: string; timezone: string | undefined } {
  const record =
    typeof data === 'object' && data !== null && !Array.isArray(data) ? (data as Record<string, unknown>) : {};
  const given = typeof record.display_name === 'string' && record.display_name.trim() !== '';
  const name = validateDisplayName(given ? (record.display_name as string) : displayNameFromEmail(email));
  if (isLeft(name)) throw authErrors.validation(name.left.message);
  const rawZone = typeof record.timezone === 'string' ? record.timezone : undefined;
  const zone = validateTimeZone(rawZone);
  if (isLeft(zone)) throw authErrors.validation(zone.left.message);
  return { displayName: name.right, timezone: zone.right };
}

const present = (value: unknown) => value !== undefined && value !== null && value !== '';

/** A user that is never stored: what a sign-up for a taken address answers, shaped exactly like a new user. */
function newUserLookalike(core: AuthCore, email: string, metadata: Record<string, unknown>): AuthUser {
  const at = core.clock.now();
  return {
    id: randomUUID(),
    email,
    passwordHash: null,
    emailConfirmedAt: null,
    confirmationSentAt: at,
    recoverySentAt: null,
    newEmail: null,
    emailChangeSentAt: null,
    lastSignInAt: null,
    metadata,
    createdAt: at,
    updatedAt: at,
  };
}

/**
 * `POST /signup`: creates an unconfirmed account (login identity, profile and first event in one transaction) and
 * mails the confirmation link and code. A taken address gets the same answer, a user object shaped like a new one
 * (GoTrue answers a fake user too), after the same work (an Argon2 hash, the same mail quota, one mail): the owner
 * is mailed a new confirmation if the account is unconfirmed, or told of the attempt. So sign-up cannot be used to
 * find out who has an account.
 */
export function signupRoutes(core: AuthCore) {
  return new Hono<AuthEnv>().post('/signup', async (c) => {
    const body = await readBody(c);
    // The standard client's signInAnonymously() posts neither an e-mail nor a phone: GoTrue's answer when disabled.
    if (!present(body.email) && !present(body.phone)) throw authErrors.anonymousDisabled();
    if (!present(body.email)) throw authErrors.notSupported('phone_provider_disabled', 'Phone sign-up');
    const ip = ipOf(core, c);
    const perIp = await core.limiter.hit(`signup:ip:${ip}`, AUTH_LIMITS.signUpsPerIp);
    if (!perIp.allowed) {
      throw authErrors.rateLimited(`Too many sign-ups from this network. Try again in ${perIp.retryAfter} seconds.`);
    }
    const email = normaliseEmail(body.email);
    const password = checkPassword(body.password);
    const data = (typeof body.data === 'object' && body.data !== null ? body.data : {}) as Record<string, unknown>;
    const profile = profileFromData(data, email);
    const { display_name: _name, timezone: _zone, ...extra } = data;
    const metadata = { ...extra, display_name: profile.displayName };
    const redirectTo = redirectOf(core, c);
    const challenge = typeof body.code_challenge === 'string' && body.code_challenge ? body.code_challenge : null;
    const challengeMethod = typeof body.code_challenge_method === 'string' ? body.code_challenge_method : 's256';
    const confirmation = { redirectTo, codeChallenge: challenge, codeChallengeMethod: challengeMethod };

    // Both paths from here on: one hash, the same quota, one mail, one user object.
    const passwordHash = await core.hasher.hash(password);
    await checkEmailQuota(core, 'signup', email, ip);
    const existing = await core.users.byEmail(email);
    if (existing) {
      if (existing.emailConfirmedAt) await core.mailer.send(accountExistsNotice(email, core.config.APP_URL));
      else await mailToken(core, { kind: 'signup', user: existing, to: email, ...confirmation });
      return c.json(await userJson(core, newUserLookalike(core, email, metadata)));
    }
    const user = await core.users.register({
      email,
      passwordHash,
      displayName: profile.displayName,
      timezone: profile.timezone,
      metadata: extra,
      correlationId: c.get('requestId') ?? randomUUID(),
    });
    await mailToken(core, { kind: 'signup', user, to: email, ...confirmation });
    const sent = await core.users.update(user.id, { confirmation_sent_at: core.clock.now() });
    return c.json(await userJson(core, sent));
  });
}
