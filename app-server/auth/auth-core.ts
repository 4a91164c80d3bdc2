import type { Context } from 'hono';
import type { Transaction } from 'kysely';
import type { Logger } from 'pino';
import type { EventStore } from '../../domain/shared/event-store.ts';
import type { DevMailbox } from '../adapters/mail/dev-mailbox.ts';
import type { Mailer } from '../adapters/mail/mailer.ts';
import type { Clock } from '../clock.ts';
import type { Config } from '../config.ts';
import type { Database } from '../db/database.ts';
import { authErrors } from './auth-error.ts';
import { type FactorStore, factorJson } from './factor-store.ts';
import type { FlowStates } from './flow-states.ts';
import type { KeyStore } from './key-store.ts';
import { tokenMail } from './mail-templates.ts';
import type { OneTimeTokens, TokenKind } from './one-time-tokens.ts';
import type { PasswordHasher } from './password-hasher.ts';
import { AUTH_LIMITS, hitAll, type RateLimiter } from './rate-limiter.ts';
import { redirectPolicy, safeRedirect } from './redirect-target.ts';
import { clientIp } from './request.ts';
import type { SecretBox } from './secrets.ts';
import type { Session, SessionStore } from './session-store.ts';
import type { SignInSources } from './sign-in-sources.ts';
import type { AccessClaims, TokenService } from './token-service.ts';
import type { AuthUser, UserStore } from './user-store.ts';

/** Everything the auth routes share: stores, services and the few helpers every route needs. */
export type AuthCore = {
  readonly config: Config;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly database: Database;
  readonly store: EventStore<Transaction<object>>;
  readonly users: UserStore;
  readonly sessions: SessionStore;
  readonly tokens: TokenService;
  readonly keys: KeyStore;
  readonly hasher: PasswordHasher;
  readonly limiter: RateLimiter;
  readonly sources: SignInSources;
  readonly otps: OneTimeTokens;
  readonly flows: FlowStates;
  readonly factors: FactorStore;
  readonly box: SecretBox;
  readonly mailer: Mailer;
  readonly mailbox: DevMailbox | null;
};

/** The signed-in caller of a protected auth route. */
export type Caller = { claims: AccessClaims; session: Session; user: AuthUser };

/** The caller's IP as the rate limiter sees it. */
export function ipOf(core: AuthCore, c: Context): string {
  return clientIp(c, core.config.AUTH_TRUST_PROXY);
}

/** The GoTrue `User` object of the client's types. */
export async function userJson(core: AuthCore, user: AuthUser) {
  const iso = (d: Date | null) => d?.toISOString();
  const factors = (await core.factors.list(user.id)).map(factorJson);
  const identity = {
    identity_id: user.id,
    id: user.id,
    user_id: user.id,
    identity_data: { sub: user.id, email: user.email, email_verified: user.emailConfirmedAt !== null },
    provider: 'email',
    email: user.email,
    created_at: iso(user.createdAt),
    updated_at: iso(user.updatedAt),
    last_sign_in_at: iso(user.lastSignInAt),
  };
  return {
    id: user.id,
    aud: core.config.AUTH_JWT_AUDIENCE,
    role: 'authenticated',
    email: user.email,
    email_confirmed_at: iso(user.emailConfirmedAt),
    confirmed_at: iso(user.emailConfirmedAt),
    confirmation_sent_at: iso(user.confirmationSentAt),
    recovery_sent_at: iso(user.recoverySentAt),
    ...(user.newEmail ? { new_email: user.newEmail, email_change_sent_at: iso(user.emailChangeSentAt) } : {}),
    phone: '',
    last_sign_in_at: iso(user.lastSignInAt),
    app_metadata: { provider: 'email', providers: ['email'] },
    user_metadata: {
      ...user.metadata,
      email: user.email,
      email_verified: user.emailConfirmedAt !== null,
      sub: user.id,
    },
    identities: [identity],
    ...(factors.length > 0 ? { factors } : {}),
    created_at: iso(user.createdAt),
    updated_at: iso(user.updatedAt),
    is_anonymous: false,
  };
}

/** A session answer: access token for the session at its current level, the refresh token, and the user. */
export async function sessionJson(core: AuthCore, user: AuthUser, session: Session, refreshToken: string) {
  const access = await core.tokens.issue({
    sub: user.id,
    email: user.email,
    aal: session.aal,
    amr: session.amr,
    session_id: session.id,
    app_metadata: { provider: 'email', providers: ['email'] },
    user_metadata: user.metadata,
  });
  return {
    access_token: access.token,
    token_type: 'bearer' as const,
    expires_in: access.expiresIn,
    expires_at: access.expiresAt,
    refresh_token: refreshToken,
    user: await userJson(core, user),
  };
}

/**
 * Starts a session for a user who just proved who they are by `method`, and remembers the address as one of the
 * user's usual ones (the per-account sign-in limit spares it).
 */
export async function signIn(core: AuthCore, c: Context, user: AuthUser, method: string) {
  const ip = ipOf(core, c);
  const { session, refreshToken } = await core.sessions.create({
    userId: user.id,
    method,
    userAgent: c.req.header('user-agent') ?? null,
    ip,
  });
  await core.sources.remember(user.id, ip);
  const signedIn = await core.users.update(user.id, { last_sign_in_at: core.clock.now() });
  return sessionJson(core, signedIn, session, refreshToken);
}

/** The bearer token's verified claims (signature, exp, aud, iss); nothing about the session yet. */
async function verifiedBearer(core: AuthCore, c: Context): Promise<AccessClaims> {
  const header = c.req.header('authorization') ?? '';
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  if (!match?.[1]) throw authErrors.noAuthorization();
  return core.tokens.verify(match[1]);
}

/**
 * The product API's check on every request: a verified token whose session is live and whose account exists, without
 * the user's row (the product reads its own tables). Sessions are remembered only together with the session epoch,
 * which every revocation moves and which each request reads afresh (live-sessions.ts), so a sign-out or an erased
 * account is refused at once by every API instance.
 */
export async function authenticateSession(
  core: AuthCore,
  c: Context,
): Promise<{ claims: AccessClaims; session: Session }> {
  const claims = await verifiedBearer(core, c);
  const session = await core.sessions.activeForUser(claims.session_id, claims.sub);
  if (!session) throw authErrors.sessionNotFound();
  return { claims, session };
}

/** The bearer token's caller: verified signature/exp/aud/iss, a live session and an existing user. */
export async function authenticate(core: AuthCore, c: Context): Promise<Caller> {
  const claims = await verifiedBearer(core, c);
  const session = await core.sessions.active(claims.session_id);
  if (!session || session.userId !== claims.sub) throw authErrors.sessionNotFound();
  const user = await core.users.byId(claims.sub);
  if (!user) throw authErrors.sessionNotFound();
  return { claims, session, user };
}

/**
 * The redirect an e-mailed link will land on: `requested` (by default the `redirect_to` query parameter, as the client
 * sends it) if redirect-target.ts allows it, else APP_URL. Every redirect or link target the auth service takes from
 * outside goes through here.
 */
export function redirectOf(core: AuthCore, c: Context, requested: unknown = c.req.query('redirect_to')): string {
  return safeRedirect(requested, redirectPolicy(core.config));
}

/**
 * Mail quota, counted per kind of mail as GoTrue does (so a recovery right after a sign-up is not refused): one
 * mail a minute and six an hour per address and kind, thirty requests an hour per IP. Every request for an address
 * counts, whether or not it has an account, so a 429 says nothing about who has one. Counting per address never
 * blocks signing in (only more mails), so an attacker cannot lock the owner out with it.
 */
export async function checkEmailQuota(core: AuthCore, kind: TokenKind, email: string, ip: string): Promise<void> {
  const ipKey = `email:ip:${ip}`;
  const { refused } = await hitAll(core.limiter, [
    [ipKey, AUTH_LIMITS.emailRequestsPerIp],
    [`email:${kind}:minute:${email}`, AUTH_LIMITS.emailsPerAddressAndKind],
    [`email:${kind}:hour:${email}`, AUTH_LIMITS.emailsPerAddressAndKindHourly],
  ]);
  if (!refused) return;
  if (refused.key === ipKey) {
    throw authErrors.rateLimited(
      `Too many email requests from this network. Try again in ${refused.retryAfter} seconds.`,
    );
  }
  throw authErrors.emailRateLimited(refused.retryAfter);
}

/** Issues a one-time token and mails its link and code. */
export async function mailToken(
  core: AuthCore,
  input: {
    kind: TokenKind;
    user: AuthUser;
    to: string;
    redirectTo: string;
    codeChallenge?: string | null;
    codeChallengeMethod?: string | null;
  },
): Promise<void> {
  const issued = await core.otps.issue({
    userId: input.user.id,
    kind: input.kind,
    email: input.to,
    redirectTo: input.redirectTo,
    codeChallenge: input.codeChallenge ?? null,
    codeChallengeMethod: input.codeChallengeMethod ?? null,
  });
  await core.mailer.send(
    tokenMail({
      kind: input.kind,
      to: input.to,
      publicUrl: core.config.PUBLIC_URL,
      redirectTo: input.redirectTo,
      ...issued,
    }),
  );
}
