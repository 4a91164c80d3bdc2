import { Hono } from 'hono';
import { Secret, TOTP } from 'otpauth';
import type { AuthEnv } from '../auth-env.ts';
import { AuthApiError, authErrors } from '../auth-error.ts';
import { type AuthCore, type Caller, authenticate, sessionJson } from '../auth-core.ts';
import { qrCodeSvg } from '../qr-code-svg.ts';
import { AUTH_LIMITS } from '../rate-limiter.ts';
import { readBody } from '../request.ts';

const CHALLENGE_TTL_SECONDS = 300;
const MAX_FACTORS = 10;
const PERIOD = 30;

function totpOf(core: AuthCore, label: string, base32: string): TOTP {
  return new TOTP({
    issuer: core.config.AUTH_TOTP_ISSUER,
    label,
    secret: Secret.fromBase32(base32),
    algorithm: 'SHA1',
    digits: 6,
    period: PERIOD,
  });
}

async function hasVerifiedFactor(core: AuthCore, userId: string): Promise<boolean> {
  return (await core.factors.list(userId)).some((f) => f.status === 'verified');
}

/** Once a user has a verified factor, managing factors needs an aal2 session (a stolen password is not enough). */
async function requireAal2IfEnrolled(core: AuthCore, caller: Caller): Promise<void> {
  if (caller.session.aal !== 'aal2' && (await hasVerifiedFactor(core, caller.user.id)))
    throw authErrors.insufficientAal();
}

/** TOTP factors: enrol, challenge, verify (raises the session to aal2), unenrol. */
export function factorRoutes(core: AuthCore) {
  return new Hono<AuthEnv>()
    .post('/factors', async (c) => {
      const caller = await authenticate(core, c);
      const body = await readBody(c);
      if (body.factor_type === 'phone')
        throw new AuthApiError(422, 'mfa_phone_enroll_not_enabled', 'MFA enroll is disabled for phone');
      if (body.factor_type === 'webauthn') {
        throw new AuthApiError(422, 'mfa_webauthn_enroll_not_enabled', 'MFA enroll is disabled for WebAuthn');
      }
      if (body.factor_type !== 'totp') throw authErrors.validation('factor_type: must be totp');
      const friendlyName =
        typeof body.friendly_name === 'string' && body.friendly_name.trim()
          ? body.friendly_name.trim().slice(0, 100)
          : null;
      await requireAal2IfEnrolled(core, caller);
      const existing = await core.factors.list(caller.user.id);
      if (existing.length >= MAX_FACTORS) {
        throw new AuthApiError(
          422,
          'too_many_enrolled_mfa_factors',
          'Maximum number of verified factors reached, unenroll to continue',
        );
      }
      if (friendlyName && existing.some((f) => f.friendly_name === friendlyName)) {
        throw new AuthApiError(
          422,
          'mfa_factor_name_conflict',
          `A factor with the friendly name "${friendlyName}" for this user already exists`,
        );
      }
      const secret = new Secret({ size: 20 });
      const factor = await core.factors.create({
        userId: caller.user.id,
        friendlyName,
        secretSealed: core.box.seal(secret.base32),
      });
      const totp = totpOf(core, caller.user.email, secret.base32);
      return c.json({
        id: factor.id,
        type: 'totp',
        ...(friendlyName ? { friendly_name: friendlyName } : {}),
        totp: { qr_code: qrCodeSvg(totp.toString()), secret: secret.base32, uri: totp.toString() },
      });
    })
    .post('/factors/:factorId/challenge', async (c) => {
      const caller = await authenticate(core, c);
      await readBody(c);
      const factor = await core.factors.get(caller.user.id, c.req.param('factorId'));
      if (!factor) throw authErrors.factorNotFound();
      const challenge = await core.factors.challenge(factor.id, caller.session.id, CHALLENGE_TTL_SECONDS);
      return c.json({
        id: challenge.id,
        type: 'totp',
        expires_at: Math.floor(new Date(challenge.expires_at).getTime() / 1000),
      });
    })
    .post('/factors/:factorId/verify', async (c) => {
      const caller = await authenticate(core, c);
      const body = await readBody(c);
      if (typeof body.challenge_id !== 'string' || !body.challenge_id)
        throw authErrors.validation('challenge_id: required');
      if (typeof body.code !== 'string' || !/^\d{6}$/.test(body.code.trim())) throw authErrors.mfaFailed();
      const factor = await core.factors.get(caller.user.id, c.req.param('factorId'));
      if (!factor) throw authErrors.factorNotFound();
      const challenge = await core.factors.getChallenge(factor.id, body.challenge_id);
      if (!challenge || challenge.verified_at || challenge.session_id !== caller.session.id)
        throw authErrors.challengeNotFound();
      const now = core.clock.now().getTime();
      if (new Date(challenge.expires_at).getTime() <= now) throw authErrors.challengeExpired();
      // The guess takes its slot before the code is checked (see RateLimiter): parallel guesses cannot outrun it.
      const limitKey = `mfa:user:${caller.user.id}`;
      const slot = await core.limiter.hit(limitKey, AUTH_LIMITS.mfaFailuresPerUser);
      if (!slot.allowed) {
        throw authErrors.rateLimited(`Too many wrong codes. Please wait ${slot.retryAfter} seconds and try again.`);
      }
      const totp = totpOf(core, caller.user.email, core.box.open(factor.secret_enc));
      const delta = totp.validate({ token: body.code.trim(), timestamp: now, window: 1 });
      const step = Math.floor(now / 1000 / PERIOD) + (delta ?? 0);
      if (delta === null || !(await core.factors.markVerified(factor.id, challenge.id, step))) {
        throw authErrors.mfaFailed();
      }
      await core.limiter.reset(limitKey);
      const { session, refreshToken } = await core.sessions.raiseToAal2(caller.session.id, 'totp', factor.id);
      return c.json(await sessionJson(core, caller.user, session, refreshToken));
    })
    .delete('/factors/:factorId', async (c) => {
      const caller = await authenticate(core, c);
      const factor = await core.factors.get(caller.user.id, c.req.param('factorId'));
      if (!factor) throw authErrors.factorNotFound();
      await requireAal2IfEnrolled(core, caller);
      await core.factors.remove(caller.user.id, factor.id);
      return c.json({ id: factor.id });
    });
}
