import { Hono } from 'hono';
import type { AuthEnv } from '../auth-env.ts';
import { authErrors } from '../auth-error.ts';
import { type AuthCore, authenticate } from '../auth-core.ts';

/**
 * Flows this server does not offer answer a clear 4xx the client surfaces as an AuthApiError (never a 5xx, which
 * the client would retry as a network failure). Where GoTrue has an answer for a disabled feature, it is GoTrue's
 * status, code and message: SAML SSO (404 saml_provider_disabled), identity linking (404 manual_linking_disabled),
 * and unlinking the one identity every account has (422 single_identity_not_deletable). OAuth providers have no
 * such answer and keep ours.
 */
export function unsupportedRoutes(core: AuthCore) {
  return new Hono<AuthEnv>()
    .post('/sso', () => {
      throw authErrors.samlDisabled();
    })
    .all('/sso/saml/*', () => {
      throw authErrors.samlDisabled();
    })
    .get('/authorize', () => {
      throw authErrors.notSupported('provider_disabled', 'Sign-in with an OAuth provider');
    })
    .get('/user/identities/authorize', () => {
      throw authErrors.manualLinkingDisabled();
    })
    .delete('/user/identities/:identityId', async (c) => {
      await authenticate(core, c);
      throw authErrors.singleIdentityNotDeletable();
    });
}
