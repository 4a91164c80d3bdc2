import { Hono } from 'hono';
import type { AuthEnv } from '../auth-env.ts';
import { authErrors } from '../auth-error.ts';
import { type AuthCore, authenticate } from '../auth-core.ts';

/** The OAuth providers GoTrue knows (internal/api/external.go, `Provider`); none is enabled here. */
const OAUTH_PROVIDERS = new Set([
  'apple',
  'azure',
  'bitbucket',
  'discord',
  'facebook',
  'figma',
  'fly',
  'github',
  'gitlab',
  'google',
  'kakao',
  'keycloak',
  'linkedin',
  'linkedin_oidc',
  'notion',
  'snapchat',
  'spotify',
  'slack',
  'slack_oidc',
  'twitch',
  'twitter',
  'x',
  'vercel_marketplace',
  'workos',
  'zoom',
]);

/**
 * GoTrue's answer to `GET /authorize?provider=…` when the provider is not enabled: 400 validation_failed
 * "Unsupported provider: <why>", the why as GoTrue words it for a known provider, a custom one and an unknown name.
 */
function unsupportedProvider(raw: string | undefined) {
  const name = (raw ?? '').toLowerCase();
  const why = name.startsWith('custom:')
    ? 'custom OAuth providers are disabled'
    : OAUTH_PROVIDERS.has(name)
      ? 'provider is not enabled'
      : `Provider ${name} could not be found`;
  return authErrors.validation(`Unsupported provider: ${why}`);
}

/**
 * Flows this server does not offer answer a clear 4xx the client surfaces as an AuthApiError (never a 5xx, which
 * the client would retry as a network failure), with GoTrue's own status, code and message for a disabled feature:
 * SAML SSO (404 saml_provider_disabled), OAuth providers (400 validation_failed "Unsupported provider: provider is not
 * enabled"), and identity linking and unlinking (GoTrue puts both identity routes behind requireAuthentication and
 * then requireManualLinkingEnabled: 401 without a session, else 404 manual_linking_disabled; its
 * single_identity_not_deletable and identity_not_found are only reached with manual linking enabled).
 */
export function unsupportedRoutes(core: AuthCore) {
  return new Hono<AuthEnv>()
    .post('/sso', () => {
      throw authErrors.samlDisabled();
    })
    .all('/sso/saml/*', () => {
      throw authErrors.samlDisabled();
    })
    .get('/authorize', (c) => {
      throw unsupportedProvider(c.req.query('provider'));
    })
    .get('/user/identities/authorize', async (c) => {
      await authenticate(core, c);
      throw authErrors.manualLinkingDisabled();
    })
    .delete('/user/identities/:identityId', async (c) => {
      await authenticate(core, c);
      throw authErrors.manualLinkingDisabled();
    });
}
