import { z } from 'zod';

/**
 * The whole runtime configuration, read once from the environment at start-up.
 * Every variable is optional so that `npm start` works on a fresh machine: the embedded PGlite database and the
 * local development adapters stand in until a real service is configured.
 */
const booleanFlag = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'], { message: 'must be true or false' })
  .transform((value) => value === 'true' || value === '1' || value === 'yes');

/** The Web Push contact when WEB_PUSH_SUBJECT is not set: the support address of the legal pages. */
export const DEFAULT_WEB_PUSH_SUBJECT = 'mailto:support@stridestake.app';

export const configSchema = z.object({
  NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
  PORT: z.coerce.number({ message: 'must be a port number' }).int().min(1).max(65_535).default(3001),
  HOST: z.string().min(1).default('0.0.0.0'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** PostgreSQL server; when unset the embedded PGlite database under DATA_DIR is used. */
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, { message: 'must be a postgres:// or postgresql:// URL' })
    .optional(),
  /**
   * A streaming replica of DATABASE_URL (a hot standby): the API's pure reads go there, and a read after the client's
   * own write goes wherever that write is visible (app-server/db/read-replica.ts). Needs DATABASE_URL.
   */
  READ_DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, { message: 'must be a postgres:// or postgresql:// URL' })
    .optional(),
  /**
   * Connections the API process keeps to PostgreSQL. Requests, the nine projection loops and the process managers
   * share them: with RUN_WORKERS on, too few and requests queue behind the workers' transactions.
   */
  DATABASE_POOL_SIZE: z.coerce.number({ message: 'must be a number' }).int().min(2).max(500).default(10),
  /**
   * Prepare each statement once per connection and reuse its plan (app-server/db/prepared-statements.ts). Turn off
   * behind a connection pooler in transaction mode that does not track prepared statements.
   */
  DATABASE_PREPARED_STATEMENTS: booleanFlag.default(true),
  /** Where the embedded database keeps its files. */
  DATA_DIR: z.string().min(1).default('./.data'),
  /** Optional KurrentDB / EventStoreDB connection string (kurrentdb:// or esdb://) for the alternative event store. */
  EVENTSTORE_URL: z
    .string()
    .regex(/^(kurrentdb|kdb|esdb|esdb\+discover|kurrentdb\+discover):\/\//, {
      message: 'must be a kurrentdb:// or esdb:// connection string',
    })
    .optional(),
  /** The public address of this API, used in e-mailed links; unset, http://localhost:<PORT> (see loadConfig). */
  PUBLIC_URL: z.string().url({ message: 'must be a URL' }).default('http://localhost:3001'),
  /** Port of the built web app (web/dist), served by `npm start` when it has been built. */
  WEB_PORT: z.coerce.number({ message: 'must be a port number' }).int().min(1).max(65_535).default(5173),
  /** The web app's address, where auth redirects land; unset, http://localhost:<WEB_PORT> (see loadConfig). */
  APP_URL: z.string().url({ message: 'must be a URL' }).default('http://localhost:5173'),
  /** Run projections and process managers inside the API process (one-box deployments and tests). */
  RUN_WORKERS: booleanFlag.default(true),
  /**
   * Milliseconds the projections and process managers wait after applying a short batch before reading again, so a
   * steady stream of writes is applied several at a time: fewer transactions per write, read models up to this much
   * later, except for a write waiting for its read models, which ends the linger (process/read-models-wanted.ts).
   * Unset: 250 in a dedicated worker process (app-server/worker.ts), which hears of every append at once; 0 in the
   * API's process, whose steps already wait behind its requests and gather batches (docs/PERFORMANCE.md).
   */
  WORKER_LINGER_MS: z.coerce.number({ message: 'must be a number' }).int().min(0).max(10_000).optional(),
  /** /health answers 503 when a read model is this many events (or more) behind the log. */
  HEALTH_MAX_LAG_EVENTS: z.coerce.number({ message: 'must be a number' }).int().min(1).default(1000),
  /** /health answers 503 when the oldest event a read model has not applied was recorded this many seconds ago. */
  HEALTH_MAX_LAG_SECONDS: z.coerce.number({ message: 'must be a number' }).positive().default(30),
  SENTRY_DSN: z.string().url({ message: 'must be a URL' }).optional(),
  /**
   * The web app's Sentry DSN, baked into the build (web/src/lib/error-reporting). The server reads it too, so the web
   * pages' CSP lets the browser send reports to that origin, and to no Sentry host when it is unset.
   */
  VITE_SENTRY_DSN: z.string().url({ message: 'must be a URL' }).optional(),
  /** SMTP server for auth e-mail (smtp:// or smtps://); without it mail goes to the development mailbox. */
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, { message: 'must be an smtp:// or smtps:// URL' })
    .optional(),
  /** Sender of auth e-mail. */
  MAIL_FROM: z.string().min(3).default('StrideStake <no-reply@stridestake.local>'),
  /** `aud` claim of access tokens (the standard client expects 'authenticated'). */
  AUTH_JWT_AUDIENCE: z.string().min(1).default('authenticated'),
  /** Access-token lifetime in seconds. */
  AUTH_ACCESS_TOKEN_TTL_SECONDS: z.coerce.number().int().min(30).max(86_400).default(3600),
  /** A session ends after this many hours without a refresh (idle lifetime). */
  AUTH_SESSION_IDLE_HOURS: z.coerce
    .number()
    .positive()
    .default(24 * 7),
  /** A session ends this many hours after sign-in whatever happens (absolute lifetime). */
  AUTH_SESSION_MAX_HOURS: z.coerce
    .number()
    .positive()
    .default(24 * 30),
  /** Seconds during which a just-rotated refresh token may be presented again (a client that lost the answer). */
  AUTH_REFRESH_REUSE_GRACE_SECONDS: z.coerce.number().int().min(0).max(300).default(10),
  /** A new signing key is made when the current one is older than this. */
  AUTH_SIGNING_KEY_ROTATE_DAYS: z.coerce.number().positive().default(90),
  /** Secret that encrypts signing keys and TOTP secrets at rest (at least 32 characters; required in production). */
  AUTH_ENCRYPTION_KEY: z.string().min(32, { message: 'must be at least 32 characters' }).optional(),
  /** Take the client address from X-Forwarded-For (only behind a proxy that sets it). */
  AUTH_TRUST_PROXY: booleanFlag.default(false),
  /**
   * Extra allowed redirect targets after e-mail links (comma-separated URLs, compared by parsed parts, never as
   * prefixes: app-server/auth/redirect-target.ts); APP_URL is always allowed. Default: the native shell's callback.
   */
  AUTH_REDIRECT_ALLOW_LIST: z.string().default('stridestake://auth/callback'),
  /**
   * The bearer token of the operator routes (/api/operator/…, what `npm run surge` uses while the server holds the
   * embedded database); unset, those routes answer 403. At least 32 characters: `openssl rand -hex 32`.
   */
  OPERATOR_TOKEN: z.string().min(32, { message: 'must be at least 32 characters' }).optional(),
  /** Issuer name shown in authenticator apps for TOTP factors. */
  AUTH_TOTP_ISSUER: z.string().min(1).default('StrideStake'),
  /** Stripe secret key (sk_… or restricted rk_…); when set, payments go to Stripe. */
  STRIPE_SECRET_KEY: z
    .string()
    .regex(/^(sk|rk)_(test|live)_/, { message: 'must be a Stripe secret key (sk_test_…, sk_live_…)' })
    .optional(),
  /** Signing secret of the Stripe webhook endpoint (whsec_…); the local gateway signs its events with it too. */
  STRIPE_WEBHOOK_SECRET: z
    .string()
    .regex(/^whsec_/, { message: 'must start with whsec_' })
    .optional(),
  /** Stripe publishable key for the web app's card form (pk_…). */
  STRIPE_PUBLISHABLE_KEY: z
    .string()
    .regex(/^pk_(test|live)_/, { message: 'must be a Stripe publishable key (pk_test_…, pk_live_…)' })
    .optional(),
  /** The database-backed local payment gateway when no Stripe key is set: on by default, refused in production. */
  PAYMENTS_LOCAL_GATEWAY: booleanFlag.optional(),
  /** Firebase service-account JSON (project_id, client_email, private_key); when set, pushes go through FCM. */
  FIREBASE_SERVICE_ACCOUNT: z
    .string()
    .refine(
      (value) => {
        try {
          const parsed = JSON.parse(value) as Record<string, unknown>;
          return ['project_id', 'client_email', 'private_key'].every((k) => typeof parsed[k] === 'string');
        } catch {
          return false;
        }
      },
      { message: 'must be a service-account JSON with project_id, client_email and private_key' },
    )
    .optional(),
  /** VAPID public key (base64url, 65 bytes) for Web Push to the web app (`npx web-push generate-vapid-keys`). */
  WEB_PUSH_VAPID_PUBLIC_KEY: z
    .string()
    .regex(/^[A-Za-z0-9_-]{87}$/, { message: 'must be a base64url VAPID public key (87 characters)' })
    .optional(),
  /** VAPID private key (base64url, 32 bytes), the pair of WEB_PUSH_VAPID_PUBLIC_KEY. */
  WEB_PUSH_VAPID_PRIVATE_KEY: z
    .string()
    .regex(/^[A-Za-z0-9_-]{43}$/, { message: 'must be a base64url VAPID private key (43 characters)' })
    .optional(),
  /** The contact push services see for Web Push (mailto: or https:). */
  WEB_PUSH_SUBJECT: z
    .string()
    .regex(/^(mailto:|https:\/\/)\S+$/, { message: 'must be a mailto: address or an https: URL' })
    .default(DEFAULT_WEB_PUSH_SUBJECT),
  /**
   * Scales every request limit of the product API (app-server/http/limits/route-limits.ts): 2 doubles them, 0 turns
   * them off (load tests, a trusted network). The auth service's own limits (docs/auth.md) are not scaled.
   */
  RATE_LIMIT_MULTIPLIER: z.coerce.number({ message: 'must be a number' }).min(0).max(1_000_000).default(1),
  /**
   * Count the generous read budgets in the database too (shared by every instance) instead of in each instance's
   * memory; costs every read an upsert (measured in the README, "Request limits").
   */
  RATE_LIMIT_SHARED_READS: booleanFlag.default(false),
  /** Live-update (SSE) streams one user may hold open at once, per API instance. */
  REALTIME_MAX_STREAMS_PER_USER: z.coerce.number({ message: 'must be a number' }).int().min(1).max(1000).default(5),
  /** Groups one user may be in at once, created and joined together. */
  GROUPS_MAX_PER_USER: z.coerce.number({ message: 'must be a number' }).int().min(1).max(10_000).default(20),
  /** Strava API application id; Strava connection is offered only when it and the secret are set. */
  STRAVA_CLIENT_ID: z.string().regex(/^\d+$/, { message: 'must be the numeric Strava client id' }).optional(),
  /** Strava API application secret. */
  STRAVA_CLIENT_SECRET: z.string().min(1).optional(),
  /** The token Strava echoes in the webhook subscription handshake (hub.verify_token). */
  STRAVA_WEBHOOK_VERIFY_TOKEN: z.string().min(8, { message: 'must be at least 8 characters' }).optional(),
  /** Base address of Strava (OAuth pages and /api/v3); tests point it at a local stand-in. */
  STRAVA_API_URL: z.string().url({ message: 'must be a URL' }).default('https://www.strava.com'),
});

export type Config = z.infer<typeof configSchema>;

/** A configuration problem, naming every variable at fault so an operator can fix them in one go. */
export class ConfigError extends Error {
  readonly problems: string[];

  constructor(problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
    this.problems = problems;
  }
}

/** Parses the environment; throws a ConfigError naming each invalid or missing variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  // An empty variable means "not set": shells and compose files often export VAR= for optional settings.
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ''));
  const result = configSchema.safeParse(cleaned);
  if (result.success) {
    // Development falls back to a fixed key so `npm start` works; production must not encrypt with a public one.
    if (result.data.NODE_ENV === 'production' && !result.data.AUTH_ENCRYPTION_KEY) {
      throw new ConfigError(['AUTH_ENCRYPTION_KEY: required in production']);
    }
    // A replica of what? The embedded database has none.
    if (result.data.READ_DATABASE_URL && !result.data.DATABASE_URL) {
      throw new ConfigError(['READ_DATABASE_URL: needs DATABASE_URL (a replica of that primary)']);
    }
    // Half a VAPID pair can sign nothing the browser would accept.
    if (!result.data.WEB_PUSH_VAPID_PUBLIC_KEY !== !result.data.WEB_PUSH_VAPID_PRIVATE_KEY) {
      throw new ConfigError(['WEB_PUSH_VAPID_PUBLIC_KEY, WEB_PUSH_VAPID_PRIVATE_KEY: set both or neither']);
    }
    // The local gateway saves test cards and takes no money: in production it would let stakes go unbacked.
    if (result.data.NODE_ENV === 'production' && result.data.PAYMENTS_LOCAL_GATEWAY === true) {
      throw new ConfigError(['PAYMENTS_LOCAL_GATEWAY: the local payment gateway cannot run in production']);
    }
    // Unset, the public address is this API on its own port, so links in e-mails follow PORT; and the web app's
    // address is the one `npm start` serves it on, so auth redirects (and CORS, and the CSP) follow WEB_PORT.
    return {
      ...result.data,
      PUBLIC_URL: cleaned.PUBLIC_URL === undefined ? `http://localhost:${result.data.PORT}` : result.data.PUBLIC_URL,
      APP_URL: cleaned.APP_URL === undefined ? `http://localhost:${result.data.WEB_PORT}` : result.data.APP_URL,
    };
  }
  throw new ConfigError(result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`));
}
