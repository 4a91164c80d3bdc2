import { allowedOrigins } from '../allowed-origins.ts';
import { Hono } from 'hono';
import { markRequests } from '../auth/fresh-read.ts';
import type { ErrorReporter } from '../adapters/error-reporting/error-reporter.ts';
import type { Transaction } from 'kysely';
import { bodyLimit } from 'hono/body-limit';
import { cors } from 'hono/cors';
import { requestId } from 'hono/request-id';
import type { Logger } from 'pino';
import type { AuthCore } from '../auth/auth-core.ts';
import { devApp, gotrueApp } from '../auth/auth-module.ts';
import type { EventStore } from '../../domain/shared/event-store.ts';
import type { ProjectionRunner } from '../../projections/engine/projection-runner.ts';
import type { Clock } from '../clock.ts';
import type { Config } from '../config.ts';
import type { Database } from '../db/database.ts';
import type { AppEnv } from './app-env.ts';
import { HttpError } from './errors.ts';
import { CATCHING_UP_HEADER } from './read-your-writes.ts';
import { errorHandler, notFoundHandler } from './middleware/error-handler.ts';
import { requestLogger } from './middleware/request-logger.ts';
import { apiSecurityHeaders } from './security-headers.ts';
import { storableInput } from './middleware/storable-input.ts';
import { createRequestLimiter } from './middleware/rate-limit.ts';
import { READ_AFTER_HEADER, READ_POSITION_HEADER, readRouting } from './middleware/read-routing.ts';
import { goalsRoutes } from './routes/goals.ts';
import { healthRoutes } from './routes/health.ts';
import { runsRoutes } from './routes/runs.ts';
import { RUN_IMPORT_PATH, runFilesRoutes, runImportBodyLimit } from './routes/run-files.ts';
import { dataExportRoutes } from './routes/me/data-export.ts';
import { badgesRoutes } from './routes/badges.ts';
import { myBadgesRoutes } from './routes/me/badges.ts';
import { myPreferencesRoutes } from './routes/me/preferences.ts';
import { profileRoutes } from './routes/me/profile.ts';
import { myProgressRoutes } from './routes/me/progress.ts';
import { openapiRoutes } from './routes/openapi.ts';
import { realtimeRoutes } from './routes/realtime.ts';
import { surgeRoutes } from './routes/surge.ts';
import { charitiesRoutes } from './routes/charities.ts';
import { paymentsRoutes } from './routes/payments.ts';
import { localCardRoutes } from './routes/local-card.ts';
import { LocalPaymentGateway } from '../adapters/payments/local/local-gateway.ts';
import { stakesRoutes } from './routes/stakes.ts';
import type { PaymentGateway } from '../adapters/payments/payment-gateway.ts';
import { feedRoutes } from './routes/feed.ts';
import { groupsRoutes } from './routes/groups.ts';
import { notificationsRoutes } from './routes/notifications.ts';
import { integrationsRoutes } from './routes/integrations.ts';
import {
  integrationsWebhookRoutes,
  STRAVA_WEBHOOK_PATH,
  stravaWebhookBodyLimit,
} from './routes/integrations-webhook.ts';
import type { StravaClient } from '../adapters/strava/strava-client.ts';
import type { PushSender } from '../adapters/push/push-sender.ts';
import type { ChangeHub } from '../realtime/change-hub.ts';
import type { ReadCache } from './read-cache.ts';

/** Everything the HTTP layer needs, wired by the composition root (runtime.ts). */
export interface AppDeps {
  readonly config: Config;
  readonly logger: Logger;
  readonly clock: Clock;
  readonly database: Database;
  readonly projections: ProjectionRunner;
  /** The event store, for command handlers. */
  readonly store: EventStore<Transaction<object>>;
  /** The auth service (GoTrue-compatible API, profile routes, product-API guard). */
  readonly auth: AuthCore;
  /** This instance's fan-out of projection change announcements to SSE connections. */
  readonly changes: ChangeHub;
  /** Exact cached answers of the hot reads (read-cache.ts); the reads go to the database without one. */
  readonly readCache?: ReadCache | null;
  /** The card processor, or null when payments are not configured (routes then answer the spec's message). */
  readonly payments: PaymentGateway | null;
  /** Unexpected errors go to the error-reporting service (Sentry when configured). */
  readonly errors?: ErrorReporter;
  /** Push delivery (FCM or in-app only); in-app only when absent. */
  readonly push?: PushSender;
  /** The Strava client shared with the sync process (one rate gate); built from the config when absent. */
  readonly strava?: StravaClient;
}

const BODILESS = new Set(['GET', 'HEAD', 'OPTIONS']);
/** Methods that never write: their fresh reads may share the round trip begun after they arrived. */
const READS = new Set(['GET', 'HEAD']);

/** Builds the API: shared middleware, then one sub-app per resource. */
export function createApp(deps: AppDeps) {
  const app = new Hono<AppEnv>();
  // First: a read's arrival is marked, so what it must read fresh (the session epoch, the read cache's barrier) may be
  // answered by any read begun after it, one round trip for all (auth/fresh-read.ts). Only reads: a request that
  // writes and then reads would accept a round trip begun before its own write; unmarked, each of its fresh reads
  // begins after it is asked, as before.
  app.use((c, next) => (READS.has(c.req.method) ? markRequests(next) : next()));
  app.use(requestId());
  // nosniff, no framing, referrer policy, HSTS on https: on every answer, errors included (security-headers.ts).
  app.use(apiSecurityHeaders(deps.config));
  // The web app runs on its own origin (APP_URL). /auth/v1 answers CORS itself with the GoTrue client's headers.
  const productCors = cors({
    origin: allowedOrigins(deps.config),
    allowHeaders: ['authorization', 'content-type', 'accept', 'idempotency-key', READ_AFTER_HEADER],
    allowMethods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
    // A saved write whose read models are late says so; an outage says when to come back.
    exposeHeaders: [CATCHING_UP_HEADER, 'Retry-After', READ_POSITION_HEADER],
    maxAge: 600,
  });
  app.use((c, next) => {
    if (c.req.path.startsWith('/auth/v1')) return next();
    // Only a browser on another origin reads CORS headers, and it always sends Origin. Without one the answer only
    // says it varies by Origin. The middleware would make a response before the route's (to hold its headers), and
    // Hono then rebuilds the route's answer as a full WHATWG Response: a tenth of a cheap read's CPU. A header set
    // before the route is merged into its answer for free.
    if (c.req.header('origin') === undefined) {
      c.header('Vary', 'Origin');
      return next();
    }
    return productCors(c, next);
  });
  app.use(requestLogger(deps.logger));
  // Every route's declared limit policy (limits/route-limits.ts), counted before any body is read.
  app.use(createRequestLimiter(deps).middleware);
  // With a streaming replica: pure reads there, unless the client's own last write is not there yet (read-routing.ts).
  const replica = deps.database.readReplica;
  if (replica) app.use(readRouting(replica));
  // Strava's unauthenticated webhook reads at most 4 KB: refused before the app-wide limit and the JSON check below.
  app.use(STRAVA_WEBHOOK_PATH, stravaWebhookBodyLimit());
  // A watch file may hold 10 MB (run-files.ts): its own limit, and a multipart body the JSON check leaves alone.
  app.use(RUN_IMPORT_PATH, runImportBodyLimit());
  const limitBody = bodyLimit({
    maxSize: 2 * 1024 * 1024,
    onError: () => {
      throw new HttpError(413, 'Request body too large');
    },
  });
  // GET, HEAD and OPTIONS carry no body here and no route reads one; asking (c.req.raw.body) would build a full
  // WHATWG Request from Node's request on every read, for nothing.
  app.use((c, next) => (BODILESS.has(c.req.method) || c.req.path === RUN_IMPORT_PATH ? next() : limitBody(c, next)));
  // After the body limit: reads the (cached) body to refuse text PostgreSQL cannot store, on every route. A watch
  // file is bytes (a FIT is binary): read as text it would be mangled; its reader cleans what it keeps (run-file.ts).
  const storable = storableInput();
  app.use((c, next) => (c.req.path === RUN_IMPORT_PATH ? next() : storable(c, next)));
  app.onError(
    errorHandler({
      logger: deps.logger,
      report: (error, c) => deps.errors?.capture(error, { requestId: c.var.requestId, path: c.req.path }),
    }),
  );
  app.notFound(notFoundHandler);
  // The local gateway's card confirmation exists only where the local gateway serves (never in production).
  if (deps.payments instanceof LocalPaymentGateway) app.route('/', localCardRoutes(deps, deps.payments));
  // The product's routes query through the read handle: the replica inside a pure read's scope (read-routing.ts), the
  // primary everywhere else (their writes, commands and checks). Health, auth, streams and webhooks keep the primary.
  const product: AppDeps = { ...deps, database: { ...deps.database, db: deps.database.readDb } };
  return (
    app
      .route('/', healthRoutes(deps))
      .route('/auth/v1', gotrueApp(deps.auth))
      .route('/', profileRoutes(deps))
      .route('/dev', devApp(deps.auth))
      .route('/', goalsRoutes(product))
      .route('/', runFilesRoutes(deps))
      .route('/', runsRoutes(product))
      .route('/', myProgressRoutes(product))
      .route('/', myBadgesRoutes(product))
      .route('/', myPreferencesRoutes(product))
      .route('/', dataExportRoutes(deps))
      .route('/', badgesRoutes())
      .route('/', surgeRoutes(product))
      .route('/', paymentsRoutes(product))
      .route('/', stakesRoutes(product))
      .route('/', charitiesRoutes(product))
      .route('/', realtimeRoutes(deps))
      .route('/', groupsRoutes(product))
      .route('/', feedRoutes(product))
      .route('/', notificationsRoutes(product))
      .route('/', integrationsWebhookRoutes(deps))
      .route('/', integrationsRoutes(product))
      // Read on first request, when every sub-app above is mounted (`route` returns this same app).
      .route(
        '/',
        openapiRoutes(() => app.routes, deps.config.RATE_LIMIT_MULTIPLIER),
      )
  );
}

/** The API's type, for a typed client (`hc<AppType>`) in the web app. */
export type AppType = ReturnType<typeof createApp>;
