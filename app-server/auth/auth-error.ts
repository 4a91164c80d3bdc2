import type { Context, ErrorHandler, NotFoundHandler } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { Logger } from 'pino';
import { isTransientDatabaseError } from '../../projections/transient-error.ts';
import { RETRY_AFTER_SECONDS, SERVICE_UNAVAILABLE } from '../db/unavailable.ts';

/** The API version the standard client understands; with it, the client reads `code` as the error code. */
export const API_VERSION = '2024-01-01';

/**
 * A refusal of the GoTrue-compatible API: the HTTP status, a stable error code from the client's ErrorCode list
 * (lib/error-codes.d.ts), and a message for people. `extra` adds fields such as `weak_password`.
 */
export class AuthApiError extends Error {
  readonly status: ContentfulStatusCode;
  readonly code: string;
  readonly extra: Record<string, unknown> | undefined;

  constructor(status: ContentfulStatusCode, code: string, message: string, extra?: Record<string, unknown>) {
    super(message);
    this.name = 'AuthApiError';
    this.status = status;
    this.code = code;
    this.extra = extra;
  }
}

/** The body the client's handleError parses: `code`/`error_code` for the code, `msg`/`message` for the text. */
export function authErrorBody(code: string, message: string, extra?: Record<string, unknown>) {
  return { code, error_code: code, msg: message, message, error: code, error_description: message, ...extra };
}

/** Answers an AuthApiError in the GoTrue shape. */
export function respondAuthError(c: Context, error: AuthApiError): Response {
  c.header('X-Supabase-Api-Version', API_VERSION);
  return c.json(authErrorBody(error.code, error.message, error.extra), error.status);
}

/**
 * `onError` of the /auth/v1 sub-app: known refusals in the GoTrue shape, bad JSON as 400, an unreachable database
 * 503 with Retry-After (the client retries those), anything else 500.
 */
export function authErrorHandler(logger: Logger): ErrorHandler {
  return (error, c) => {
    if (error instanceof AuthApiError) return respondAuthError(c, error);
    if (error instanceof SyntaxError && /JSON/i.test(error.message)) {
      return respondAuthError(c, new AuthApiError(400, 'bad_json', 'Could not parse request body as JSON'));
    }
    if (error instanceof HTTPException) {
      const code = error.status === 413 ? 'request_too_large' : 'validation_failed';
      return respondAuthError(c, new AuthApiError(error.status, code, error.message || 'Request failed'));
    }
    if (isTransientDatabaseError(error)) {
      logger.warn({ err: error, requestId: c.get('requestId') }, 'database unavailable');
      c.header('Retry-After', String(RETRY_AFTER_SECONDS));
      c.header('X-Supabase-Api-Version', API_VERSION);
      return c.json(authErrorBody('unexpected_failure', SERVICE_UNAVAILABLE), 503);
    }
    logger.error({ err: error, requestId: c.get('requestId') }, 'unhandled auth error');
    c.header('X-Supabase-Api-Version', API_VERSION);
    return c.json(authErrorBody('unexpected_failure', 'Unexpected failure, please try again'), 500);
  };
}

/** Unknown /auth/v1 paths answer 404 in the GoTrue shape. */
export const authNotFound: NotFoundHandler = (c) =>
  respondAuthError(c, new AuthApiError(404, 'not_found', 'Not found'));

/** Common refusals, named once so every route words them the same way. */
export const authErrors = {
  badJson: () => new AuthApiError(400, 'bad_json', 'Could not parse request body as JSON'),
  validation: (message: string) => new AuthApiError(400, 'validation_failed', message),
  invalidEmail: () =>
    new AuthApiError(400, 'email_address_invalid', 'Unable to validate email address: invalid format'),
  /** GoTrue's weak_password: 422 with the reasons (length, characters, pwned) beside the message. */
  weakPassword: (reason: WeakPasswordReason, message: string) =>
    new AuthApiError(422, 'weak_password', message, { weak_password: { reasons: [reason], message } }),
  invalidCredentials: () => new AuthApiError(400, 'invalid_credentials', 'Invalid login credentials'),
  emailNotConfirmed: () => new AuthApiError(400, 'email_not_confirmed', 'Email not confirmed'),
  noAuthorization: () => new AuthApiError(401, 'no_authorization', 'This endpoint requires a valid Bearer token'),
  /** GoTrue words every JWT refusal as "invalid JWT: unable to parse or verify signature, <why>". */
  badJwt: (detail: string) =>
    new AuthApiError(403, 'bad_jwt', `invalid JWT: unable to parse or verify signature, ${detail}`),
  sessionNotFound: () =>
    new AuthApiError(403, 'session_not_found', 'Session from session_id claim in JWT does not exist'),
  sessionExpired: () => new AuthApiError(400, 'session_expired', 'Session expired'),
  refreshTokenNotFound: () =>
    new AuthApiError(400, 'refresh_token_not_found', 'Invalid Refresh Token: Refresh Token Not Found'),
  refreshTokenReused: () => new AuthApiError(400, 'refresh_token_already_used', 'Invalid Refresh Token: Already Used'),
  otpExpired: () => new AuthApiError(403, 'otp_expired', 'Token has expired or is invalid'),
  flowStateNotFound: () =>
    new AuthApiError(404, 'flow_state_not_found', 'Invalid flow state, no valid flow state found'),
  badCodeVerifier: () =>
    new AuthApiError(400, 'bad_code_verifier', 'Code challenge does not match previously saved code verifier'),
  /** GoTrue's words for a password change; an e-mail change (ours only: GoTrue confirms both addresses) says so. */
  reauthNeeded: (passwordOnly: boolean) =>
    new AuthApiError(
      400,
      'reauthentication_needed',
      passwordOnly
        ? 'Password update requires reauthentication'
        : 'Changing your email or password requires reauthentication',
    ),
  reauthNotValid: () => new AuthApiError(422, 'reauthentication_not_valid', 'Nonce has expired or is invalid'),
  samePassword: () => new AuthApiError(422, 'same_password', 'New password should be different from the old password.'),
  emailExists: () =>
    new AuthApiError(422, 'email_exists', 'A user with this email address has already been registered'),
  insufficientAal: () => new AuthApiError(403, 'insufficient_aal', 'AAL2 session is required to perform this action'),
  factorNotFound: () => new AuthApiError(404, 'mfa_factor_not_found', 'Factor not found'),
  challengeNotFound: () => new AuthApiError(404, 'mfa_challenge_expired', 'Challenge not found or already used'),
  challengeExpired: () =>
    new AuthApiError(400, 'mfa_challenge_expired', 'MFA challenge has expired, verify against another challenge'),
  mfaFailed: () => new AuthApiError(422, 'mfa_verification_failed', 'Invalid TOTP code entered'),
  userNotFound: () => new AuthApiError(404, 'user_not_found', 'User not found'),
  otpSignupDisabled: () => new AuthApiError(422, 'otp_disabled', 'Signups not allowed for otp'),
  rateLimited: (message: string) => new AuthApiError(429, 'over_request_rate_limit', message),
  emailRateLimited: (seconds: number) =>
    new AuthApiError(
      429,
      'over_email_send_rate_limit',
      `For security purposes, you can only request this after ${seconds} seconds.`,
    ),
  notSupported: (code: string, what: string) => new AuthApiError(400, code, `${what} is not supported by this server`),
  // Features this server does not offer, with GoTrue's own status, code and message for a disabled feature.
  web3Disabled: () => new AuthApiError(422, 'web3_provider_disabled', 'Web3 provider is disabled'),
  samlDisabled: () => new AuthApiError(404, 'saml_provider_disabled', 'SAML 2.0 is disabled'),
  anonymousDisabled: () => new AuthApiError(422, 'anonymous_provider_disabled', 'Anonymous sign-ins are disabled'),
  manualLinkingDisabled: () => new AuthApiError(404, 'manual_linking_disabled', 'Manual linking is disabled'),
  /** GoTrue's ID-token grant for a built-in provider that is not enabled, named by its issuer. */
  idTokenProviderDisabled: (issuer: string) =>
    new AuthApiError(400, 'provider_disabled', `Provider (issuer ${JSON.stringify(issuer)}) is not enabled`),
};

/** Why a password is too weak, in GoTrue's words: too short, wrong characters, or known from breaches. */
export type WeakPasswordReason = 'length' | 'characters' | 'pwned';
