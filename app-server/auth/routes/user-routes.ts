import { Hono } from 'hono';
import type { AuthEnv } from '../auth-env.ts';
import { authErrors } from '../auth-error.ts';
import {
  type AuthCore,
  type Caller,
  authenticate,
  checkEmailQuota,
  ipOf,
  mailToken,
  redirectOf,
  userJson,
} from '../auth-core.ts';
import { emailChangeNotice } from '../mail-templates.ts';
import { checkPassword, normaliseEmail, readBody } from '../request.ts';

/** A session opened by a recovery link may set a new password without a nonce for this long. */
const RECOVERY_WINDOW_SECONDS = 15 * 60;

function recentRecovery(core: AuthCore, caller: Caller): boolean {
  const now = core.clock.now().getTime() / 1000;
  return caller.session.amr.some((e) => e.method === 'recovery' && now - e.timestamp <= RECOVERY_WINDOW_SECONDS);
}

/**
 * A password or e-mail change needs proof the person is present: the nonce mailed by GET /reauthenticate (or a
 * fresh recovery session, for the password-reset flow), and aal2 when the user has a verified factor.
 */
async function requireReauthentication(core: AuthCore, caller: Caller, nonce: unknown, passwordOnly: boolean) {
  const verified = (await core.factors.list(caller.user.id)).some((f) => f.status === 'verified');
  if (verified && caller.session.aal !== 'aal2') throw authErrors.insufficientAal();
  if (passwordOnly && recentRecovery(core, caller)) return;
  if (typeof nonce !== 'string' || nonce.trim() === '') throw authErrors.reauthNeeded(passwordOnly);
  const used = await core.otps.consumeCode({ userId: caller.user.id, code: nonce.trim(), kinds: ['reauthentication'] });
  if (!used) throw authErrors.reauthNotValid();
}

/** `GET /user`, `PUT /user` and `GET /reauthenticate`. */
export function userRoutes(core: AuthCore) {
  return new Hono<AuthEnv>()
    .get('/user', async (c) => {
      const caller = await authenticate(core, c);
      return c.json(await userJson(core, caller.user));
    })
    .put('/user', async (c) => {
      const caller = await authenticate(core, c);
      const body = await readBody(c);
      if (body.phone !== undefined && body.phone !== null && body.phone !== '') {
        throw authErrors.notSupported('phone_provider_disabled', 'Phone numbers are');
      }
      const password = body.password === undefined || body.password === null ? undefined : checkPassword(body.password);
      let email = body.email === undefined || body.email === null ? undefined : normaliseEmail(body.email);
      if (email === caller.user.email) email = undefined;
      if (
        body.data !== undefined &&
        (typeof body.data !== 'object' || body.data === null || Array.isArray(body.data))
      ) {
        throw authErrors.validation('data: must be an object');
      }
      if (
        password !== undefined &&
        caller.user.passwordHash &&
        (await core.hasher.verify(caller.user.passwordHash, password))
      ) {
        throw authErrors.samePassword();
      }
      if (email !== undefined && (await core.users.byEmail(email))) throw authErrors.emailExists();
      if (password !== undefined || email !== undefined) {
        await requireReauthentication(core, caller, body.nonce, email === undefined);
      }

      let user = caller.user;
      if (body.data) {
        const merged = { ...user.metadata };
        for (const [key, value] of Object.entries(body.data as Record<string, unknown>)) {
          if (value === null) delete merged[key];
          else merged[key] = value;
        }
        user = await core.users.update(user.id, { user_metadata: JSON.stringify(merged) });
      }
      if (password !== undefined) {
        user = await core.users.update(user.id, { encrypted_password: await core.hasher.hash(password) });
        // A new password ends every other session: whoever knew the old one is signed out.
        await core.sessions.revokeAll(user.id, caller.session.id);
      }
      if (email !== undefined) {
        await checkEmailQuota(core, 'email_change', email, ipOf(core, c));
        user = await core.users.update(user.id, { new_email: email, email_change_sent_at: core.clock.now() });
        const challenge = typeof body.code_challenge === 'string' && body.code_challenge ? body.code_challenge : null;
        await mailToken(core, {
          kind: 'email_change',
          user,
          to: email,
          redirectTo: redirectOf(core, c),
          codeChallenge: challenge,
          codeChallengeMethod: typeof body.code_challenge_method === 'string' ? body.code_challenge_method : 's256',
        });
        await core.mailer.send(emailChangeNotice(user.email, email));
      }
      return c.json(await userJson(core, user));
    })
    .get('/reauthenticate', async (c) => {
      const caller = await authenticate(core, c);
      await checkEmailQuota(core, 'reauthentication', caller.user.email, ipOf(core, c));
      await mailToken(core, {
        kind: 'reauthentication',
        user: caller.user,
        to: caller.user.email,
        redirectTo: core.config.APP_URL,
      });
      return c.json({});
    });
}
