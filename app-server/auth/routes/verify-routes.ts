import { Hono } from 'hono';

import type { AuthEnv } from '../auth-env.ts';
import { authErrors } from '../auth-error.ts';
import { type AuthCore, ipOf, redirectOf, signIn } from '../auth-core.ts';
import type { TokenKind } from '../one-time-tokens.ts';
import { AUTH_LIMITS } from '../rate-limiter.ts';
import { normaliseEmail, readBody } from '../request.ts';
import type { AuthTables, OneTimeTokenRow } from '../tables.ts';
import type { AuthUser } from '../user-store.ts';

/** Which stored token kinds a client `type` may consume ('email' is the newer name for an e-mail OTP). */
const KINDS: Record<string, readonly TokenKind[]> = {
  signup: ['signup'],
  magiclink: ['magiclink', 'signup'],
  email: ['magiclink', 'signup'],
  recovery: ['recovery'],
  email_change: ['email_change'],
};

/** The `amr` method a verified token counts as; 'recovery' lets that session set a new password. */
const METHOD: Record<TokenKind, string> = {
  signup: 'otp',
  magiclink: 'magiclink',
  recovery: 'recovery',
  email_change: 'otp',
  reauthentication: 'otp',
};

/** GoTrue's E.164 check of a phone number, after dropping everything but digits. */
const E164 = /^[1-9][0-9]{1,14}$/;

function kindsOf(type: unknown): readonly TokenKind[] {
  if (type === 'invite') throw authErrors.notSupported('validation_failed', 'Invitations are');
  if (typeof type !== 'string' || !KINDS[type]) throw authErrors.validation('Unsupported verification type');
  return KINDS[type];
}

const given = (value: unknown): value is string => typeof value === 'string' && value !== '';

/** Applies what a verified token proves: the address is confirmed, or the new address becomes the account's. */
async function applyToken(core: AuthCore, row: OneTimeTokenRow): Promise<AuthUser> {
  const user = await core.users.byId(row.user_id);
  if (!user) throw authErrors.otpExpired();
  const now = core.clock.now();
  if (row.kind === 'email_change') {
    if (user.newEmail !== row.email) throw authErrors.otpExpired();
    if (await core.users.byEmail(row.email)) throw authErrors.emailExists();
    const db = core.database.db.withTables<AuthTables>();
    await db.updateTable('users').set({ email: row.email, updated_at: now }).where('id', '=', user.id).execute();
    return core.users.update(user.id, {
      email: row.email,
      new_email: null,
      email_change_sent_at: null,
      email_confirmed_at: user.emailConfirmedAt ?? now,
    });
  }
  if (!user.emailConfirmedAt) return core.users.update(user.id, { email_confirmed_at: now });
  return user;
}

function withParams(base: string, params: Record<string, string>, where: 'query' | 'fragment'): string {
  const encoded = new URLSearchParams(params).toString();
  if (where === 'fragment') return `${base.split('#')[0]}#${encoded}`;
  const url = new URL(base);
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  return url.toString();
}

/**
 * `GET /verify` (the e-mailed link: redirects with the session in the fragment, or `?code=` for PKCE, or the
 * error in the fragment) and `POST /verify` (a typed code or a token hash: answers the session as JSON).
 */
export function verifyRoutes(core: AuthCore) {
  return new Hono<AuthEnv>()
    .get('/verify', async (c) => {
      // The link's redirect_to, checked again (a link mailed before a policy change is held to today's policy).
      const requested = redirectOf(core, c);
      const token = c.req.query('token');
      const type = c.req.query('type');
      const fail = (description: string) =>
        c.redirect(
          withParams(
            requested,
            { error: 'access_denied', error_code: 'otp_expired', error_description: description },
            'fragment',
          ),
          303,
        );
      if (!token || !type || !KINDS[type]) return fail('Email link is invalid or has expired');
      const row = await core.otps.consumeLink(token, KINDS[type]);
      if (!row) return fail('Email link is invalid or has expired');
      // Where the session goes is what was checked and stored when the mail was sent (and is checked again here),
      // not what the link's query says now: a link edited after it was mailed cannot send the session elsewhere.
      const redirect = redirectOf(core, c, row.redirect_to ?? requested);
      let user: AuthUser;
      try {
        user = await applyToken(core, row);
      } catch {
        return fail('Email link is invalid or has expired');
      }
      if (row.code_challenge) {
        const code = await core.flows.create({
          userId: user.id,
          codeChallenge: row.code_challenge,
          method: row.code_challenge_method ?? 's256',
          authenticationMethod: METHOD[row.kind],
        });
        return c.redirect(withParams(redirect, { code }, 'query'), 303);
      }
      const session = await signIn(core, c, user, METHOD[row.kind]);
      return c.redirect(
        withParams(
          redirect,
          {
            access_token: session.access_token,
            expires_at: String(session.expires_at),
            expires_in: String(session.expires_in),
            refresh_token: session.refresh_token,
            token_type: 'bearer',
            type,
          },
          'fragment',
        ),
        303,
      );
    })
    .post('/verify', async (c) => {
      const body = await readBody(c);
      // GoTrue's VerifyParams.Validate, in its order and words.
      if (!given(body.type)) throw authErrors.validation('Verify requires a verification type');
      if (given(body.token) === given(body.token_hash)) {
        throw authErrors.validation('Verify requires either a token or a token hash');
      }
      if (given(body.token) && given(body.phone) && !given(body.email)) {
        if (!E164.test(body.phone.replace(/\D/g, ''))) {
          throw authErrors.validation('Invalid phone number format (E.164 required)');
        }
        // No account has a phone number, so no phone code is ever valid: GoTrue's answer for a code it cannot find.
        throw authErrors.otpExpired();
      }
      if (given(body.token) && given(body.phone) === given(body.email)) {
        throw authErrors.validation('Only an email address or phone number should be provided on verify');
      }
      const kinds = kindsOf(body.type);
      const tokenHash = given(body.token_hash) ? body.token_hash : null;
      let email = '';
      let code = '';
      if (!tokenHash) {
        email = normaliseEmail(body.email);
        if (typeof body.token !== 'string' || !/^\d{6}$/.test(body.token.trim())) throw authErrors.otpExpired();
        code = body.token.trim();
      }
      // The attempt takes its slot before any secret is looked at (see RateLimiter); a right code gives it back.
      const ipKey = `verify:ip:${ipOf(core, c)}`;
      const slot = await core.limiter.hit(ipKey, AUTH_LIMITS.verifyFailuresPerIp);
      if (!slot.allowed) {
        throw authErrors.rateLimited(
          `Too many verification attempts. Please wait ${slot.retryAfter} seconds and try again.`,
        );
      }
      const row = tokenHash
        ? await core.otps.consumeLink(tokenHash, kinds)
        : await core.otps.consumeCode({ email, code, kinds });
      if (!row) throw authErrors.otpExpired();
      await core.limiter.release(ipKey, slot);
      const user = await applyToken(core, row);
      return c.json(await signIn(core, c, user, METHOD[row.kind]));
    });
}
