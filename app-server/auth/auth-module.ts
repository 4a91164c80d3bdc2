import { allowedOrigins } from '../allowed-origins.ts';
import { Hono } from 'hono';
import { cors } from 'hono/cors';
import type { Transaction } from 'kysely';
import type { Logger } from 'pino';
import type { EventStore } from '../../domain/shared/event-store.ts';
import { type DevMailbox, createDevMailbox } from '../adapters/mail/dev-mailbox.ts';
import { devMailRoutes } from '../adapters/mail/dev-mail-routes.ts';
import type { Mailer } from '../adapters/mail/mailer.ts';
import { createSmtpMailer } from '../adapters/mail/smtp-mailer.ts';
import type { Clock } from '../clock.ts';
import type { Config } from '../config.ts';
import type { Database } from '../db/database.ts';
import type { AuthEnv } from './auth-env.ts';
import { API_VERSION, AuthApiError, authErrorHandler } from './auth-error.ts';
import type { AuthCore } from './auth-core.ts';
import { createFactorStore } from './factor-store.ts';
import { createFlowStates } from './flow-states.ts';
import { createKeyStore } from './key-store.ts';
import { createOneTimeTokens } from './one-time-tokens.ts';
import { type PasswordHasher, createArgon2Hasher } from './password-hasher.ts';
import { createRateLimiter } from './rate-limiter.ts';
import { discoveryRoutes } from './routes/discovery-routes.ts';
import { emailFlowRoutes } from './routes/email-flow-routes.ts';
import { factorRoutes } from './routes/factor-routes.ts';
import { logoutRoutes } from './routes/logout-routes.ts';
import { signupRoutes } from './routes/signup-routes.ts';
import { tokenRoutes } from './routes/token-routes.ts';
import { unsupportedRoutes } from './routes/unsupported-routes.ts';
import { userRoutes } from './routes/user-routes.ts';
import { verifyRoutes } from './routes/verify-routes.ts';
import { createSecretBox } from './secrets.ts';
import { createSessionStore } from './session-store.ts';
import { createSignInSources } from './sign-in-sources.ts';
import { createTokenService } from './token-service.ts';
import { createUserStore } from './user-store.ts';

export interface AuthModuleDeps {
  readonly config: Config;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly database: Database;
  readonly store: EventStore<Transaction<object>>;
  /** Overrides for tests (e.g. a recording mailer). */
  readonly mailer?: Mailer;
  readonly hasher?: PasswordHasher;
  /** The session epoch read after the current request arrived, shared with the read cache's barrier (runtime.ts). */
  readonly freshEpoch?: () => Promise<number>;
}

/** Wires the auth service: stores, key store, mailer (SMTP or the development mailbox) and services. */
export function createAuthCore(deps: AuthModuleDeps): AuthCore {
  const { config, clock, database } = deps;
  const db = database.db;
  const box = createSecretBox(config.AUTH_ENCRYPTION_KEY);
  const keys = createKeyStore({
    db,
    clock,
    box,
    rotateAfterDays: config.AUTH_SIGNING_KEY_ROTATE_DAYS,
    publishRetiredForSeconds: config.AUTH_ACCESS_TOKEN_TTL_SECONDS + 600,
  });
  const mailbox: DevMailbox | null = config.SMTP_URL ? null : createDevMailbox({ db, clock });
  const mailer =
    deps.mailer ?? (config.SMTP_URL ? createSmtpMailer({ url: config.SMTP_URL, from: config.MAIL_FROM }) : mailbox!);
  return {
    config,
    clock,
    logger: deps.logger,
    database,
    store: deps.store,
    users: createUserStore({ db, clock, store: deps.store }),
    sessions: createSessionStore({
      db,
      clock,
      idleSeconds: config.AUTH_SESSION_IDLE_HOURS * 3600,
      absoluteSeconds: config.AUTH_SESSION_MAX_HOURS * 3600,
      reuseGraceSeconds: config.AUTH_REFRESH_REUSE_GRACE_SECONDS,
      ...(deps.freshEpoch ? { freshEpoch: deps.freshEpoch } : {}),
    }),
    tokens: createTokenService({
      keys,
      clock,
      issuer: new URL('/auth/v1', config.PUBLIC_URL).toString(),
      audience: config.AUTH_JWT_AUDIENCE,
      ttlSeconds: config.AUTH_ACCESS_TOKEN_TTL_SECONDS,
    }),
    keys,
    hasher: deps.hasher ?? createArgon2Hasher(),
    limiter: createRateLimiter({ db, clock }),
    sources: createSignInSources({ db, clock }),
    otps: createOneTimeTokens({ db, clock }),
    flows: createFlowStates({ db, clock }),
    factors: createFactorStore({ db, clock }),
    box,
    mailer,
    mailbox,
  };
}

/** The GoTrue-compatible API mounted at /auth/v1, with its own error shape, CORS and API-version header. */
export function gotrueApp(core: AuthCore) {
  const app = new Hono<AuthEnv>();
  app.use(
    cors({
      origin: allowedOrigins(core.config),
      allowHeaders: ['authorization', 'apikey', 'content-type', 'x-client-info', 'x-supabase-api-version'],
      allowMethods: ['GET', 'POST', 'PUT', 'DELETE', 'OPTIONS'],
      exposeHeaders: ['x-supabase-api-version'],
    }),
  );
  app.use(async (c, next) => {
    await next();
    c.res.headers.set('X-Supabase-Api-Version', API_VERSION);
  });
  app.onError(authErrorHandler(core.logger));
  return app
    .route('/', signupRoutes(core))
    .route('/', tokenRoutes(core))
    .route('/', verifyRoutes(core))
    .route('/', userRoutes(core))
    .route('/', logoutRoutes(core))
    .route('/', emailFlowRoutes(core))
    .route('/', factorRoutes(core))
    .route('/', discoveryRoutes(core))
    .route('/', unsupportedRoutes(core))
    .all('*', () => {
      throw new AuthApiError(404, 'not_found', 'Not found');
    });
}

/** `/dev/mail`: only outside production and only when mail goes to the development mailbox. */
export function devApp(core: AuthCore) {
  if (core.config.NODE_ENV === 'production' || !core.mailbox) return new Hono();
  return devMailRoutes(core.mailbox);
}
