import { Hono } from 'hono';
import type { AuthEnv } from '../auth-env.ts';
import type { AuthCore } from '../auth-core.ts';

/** `GET /.well-known/jwks.json` (current and recently retired public keys) and `GET /settings`. */
export function discoveryRoutes(core: AuthCore) {
  return new Hono<AuthEnv>()
    .get('/.well-known/jwks.json', async (c) => {
      // Short cache: a rotated-in key must reach verifiers well before the old key's tokens run out.
      c.header('Cache-Control', 'public, max-age=600');
      return c.json(await core.keys.jwks());
    })
    .get('/settings', (c) =>
      c.json({
        external: { email: true, phone: false, anonymous_users: false, saml: false },
        disable_signup: false,
        mailer_autoconfirm: false,
        phone_autoconfirm: false,
        sms_provider: '',
        saml_enabled: false,
      }),
    );
}
