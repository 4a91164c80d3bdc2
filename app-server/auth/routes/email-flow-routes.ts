import { randomUUID } from 'node:crypto';
import { Hono } from 'hono';
import type { AuthEnv } from '../auth-env.ts';
import { authErrors } from '../auth-error.ts';
import { type AuthCore, checkEmailQuota, ipOf, mailToken, redirectOf } from '../auth-core.ts';
import { nothingToSendNotice } from '../mail-templates.ts';
import { normaliseEmail, readBody } from '../request.ts';
import { profileFromData } from './signup-routes.ts';

function pkceOf(body: Record<string, unknown>) {
  const challenge = typeof body.code_challenge === 'string' && body.code_challenge ? body.code_challenge : null;
  const method = typeof body.code_challenge_method === 'string' ? body.code_challenge_method : 's256';
  return { codeChallenge: challenge, codeChallengeMethod: method };
}

function emailOf(body: Record<string, unknown>): string {
  if (body.email === undefined || body.email === null || body.email === '') {
    if (body.phone) throw authErrors.notSupported('phone_provider_disabled', 'Phone one-time codes are');
    throw authErrors.validation('You must provide either an email or phone number.');
  }
  return normaliseEmail(body.email);
}

/**
 * `POST /recover`, `POST /otp` and `POST /resend`. No enumeration: each answers `{}` whether or not the address has
 * an account (also `/otp` with create_user false, where GoTrue would answer otp_disabled for an unknown address),
 * takes the same mail quota first, and sends exactly one mail: the link asked for, or a notice that there was
 * nothing to send.
 */
export function emailFlowRoutes(core: AuthCore) {
  const notice = (to: string, request: Parameters<typeof nothingToSendNotice>[1]) =>
    core.mailer.send(nothingToSendNotice(to, request, core.config.APP_URL));
  return new Hono<AuthEnv>()
    .post('/recover', async (c) => {
      const body = await readBody(c);
      const email = emailOf(body);
      await checkEmailQuota(core, 'recovery', email, ipOf(core, c));
      const user = await core.users.byEmail(email);
      if (!user) {
        await notice(email, 'recovery');
        return c.json({});
      }
      await mailToken(core, { kind: 'recovery', user, to: email, redirectTo: redirectOf(core, c), ...pkceOf(body) });
      await core.users.update(user.id, { recovery_sent_at: core.clock.now() });
      return c.json({});
    })
    .post('/otp', async (c) => {
      const body = await readBody(c);
      const email = emailOf(body);
      await checkEmailQuota(core, 'magiclink', email, ipOf(core, c));
      let user = await core.users.byEmail(email);
      if (!user && body.create_user === false) {
        await notice(email, 'magiclink');
        return c.json({});
      }
      if (!user) {
        const profile = profileFromData(body.data, email);
        user = await core.users.register({
          email,
          passwordHash: null,
          displayName: profile.displayName,
          timezone: profile.timezone,
          metadata: {},
          correlationId: c.get('requestId') ?? randomUUID(),
        });
      }
      const kind = user.emailConfirmedAt ? 'magiclink' : 'signup';
      await mailToken(core, { kind, user, to: email, redirectTo: redirectOf(core, c), ...pkceOf(body) });
      return c.json({});
    })
    .post('/resend', async (c) => {
      const body = await readBody(c);
      const email = emailOf(body);
      if (body.type !== 'signup' && body.type !== 'email_change') {
        throw authErrors.validation('type: Resend supports signup and email_change');
      }
      await checkEmailQuota(core, body.type, email, ipOf(core, c));
      const user = await core.users.byEmail(email);
      const redirectTo = redirectOf(core, c);
      if (user && body.type === 'signup' && !user.emailConfirmedAt) {
        await mailToken(core, { kind: 'signup', user, to: email, redirectTo, ...pkceOf(body) });
      } else if (user?.newEmail && body.type === 'email_change') {
        await mailToken(core, { kind: 'email_change', user, to: user.newEmail, redirectTo, ...pkceOf(body) });
      } else {
        await notice(email, 'confirmation');
      }
      return c.json({});
    });
}
