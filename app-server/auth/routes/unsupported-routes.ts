import { Hono } from 'hono';
import type { AppEnv } from '../../http/app-env.ts';
import { authErrors } from '../auth-error.ts';

/**
 * Flows this server does not offer answer a clear 400 the client surfaces as an AuthApiError (never a 5xx, which
 * the client would retry as a network failure): SSO, OAuth providers and identity linking.
 */
export function unsupportedRoutes() {
  return new Hono<AppEnv>()
    .post('/sso', () => {
      throw authErrors.notSupported('sso_provider_not_found', 'Single sign-on (SSO)');
    })
    .get('/authorize', () => {
      throw authErrors.notSupported('provider_disabled', 'Sign-in with an OAuth provider');
    })
    .get('/user/identities/authorize', () => {
      throw authErrors.notSupported('manual_linking_disabled', 'Identity linking');
    })
    .delete('/user/identities/:identityId', () => {
      throw authErrors.notSupported('manual_linking_disabled', 'Identity unlinking');
    });
}
