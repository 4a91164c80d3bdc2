import type { Transaction } from 'kysely';
import type { Logger } from 'pino';
import type { EventStore } from '../domain/shared/event-store.ts';
import { allProjectors } from '../projections/registry.ts';
import { ProjectionRunner } from '../projections/engine/projection-runner.ts';
import { withInlineProjections } from '../projections/engine/inline-projections.ts';
import type { AuthCore } from './auth/auth-core.ts';
import { createAuthCore } from './auth/auth-module.ts';
import { createErrorReporter } from './adapters/error-reporting/error-reporter.ts';
import { createPostgresEventStore } from './adapters/event-store/postgres/postgres-event-store.ts';
import { type Clock, systemClock } from './clock.ts';
import type { Config } from './config.ts';
import { type Database, openDatabase } from './db/database.ts';
import { migrateToLatest } from './db/migrate.ts';
import { withSchemaLock } from './db/schema-lock.ts';
import { type AppType, createApp } from './http/app.ts';
import { createLogger } from './logger.ts';
import { ProcessManagerHost } from './process/process-manager-host.ts';
import { allProcessManagers } from './process/registry.ts';
import { RequestFreshness } from './realtime/request-freshness.ts';
import { PersonalKeyVault } from './privacy/key-vault.ts';
import { personalDataRules } from './privacy/personal-data-policy.ts';
import { protectPersonalData } from './privacy/protected-event-store.ts';
import { ChangeHub } from './realtime/change-hub.ts';
import { createReadCache, type ReadCache } from './http/read-cache.ts';
import { createPushSender } from './adapters/push/create-push-sender.ts';
import type { PushSender } from './adapters/push/push-sender.ts';
import { createStravaClient } from './adapters/strava/create-strava-client.ts';
import { createSecretBox } from './auth/secrets.ts';
import { hurryWhenAsked, readModelsWanted } from './process/read-models-wanted.ts';
import { createPaymentGateway } from './adapters/payments/create-payment-gateway.ts';
import type { PaymentGateway } from './adapters/payments/payment-gateway.ts';

/** A wired server: every adapter chosen from the configuration, ready to serve and to run workers. */
export interface Runtime {
  readonly config: Config;
  readonly logger: Logger;
  readonly clock: Clock;
  readonly database: Database;
  readonly store: EventStore<Transaction<object>>;
  readonly projections: ProjectionRunner;
  /** Settlement, holds, reminders and other reactions to events and time. */
  readonly processes: ProcessManagerHost;
  /** This instance's fan-out of "your list changed" to SSE connections. */
  readonly changes: ChangeHub;
  /** Exact cached answers of the hot reads (null with a read replica: read-cache.ts). */
  readonly readCache: ReadCache | null;
  readonly app: AppType;
  /** The auth service, for workers and tests (keys, sessions, mailbox). */
  readonly auth: AuthCore;
  /** The card processor (Stripe or the local gateway), or null when payments are not configured. */
  readonly payments: PaymentGateway | null;
  /** Starts projections and process managers (when RUN_WORKERS). */
  startWorkers(): Promise<void>;
  close(): Promise<void>;
}

export interface RuntimeOverrides {
  readonly clock?: Clock;
  readonly logger?: Logger;
  /** An already-open database (tests share one PGlite per file). */
  readonly database?: Database;
  /** A payment gateway to use instead of the configured one (tests). */
  readonly payments?: PaymentGateway | null;
  /** A push sender to use instead of the configured one (tests). */
  readonly push?: PushSender;
}

/**
 * The composition root: the only place that picks adapters. PGlite under DATA_DIR unless DATABASE_URL is set;
 * migrations run before anything reads.
 */
export async function createRuntime(config: Config, overrides: RuntimeOverrides = {}): Promise<Runtime> {
  const logger = overrides.logger ?? createLogger(config);
  const clock = overrides.clock ?? systemClock;
  const database =
    overrides.database ??
    (await openDatabase({
      databaseUrl: config.DATABASE_URL,
      readDatabaseUrl: config.READ_DATABASE_URL,
      dataDir: config.DATA_DIR,
      poolSize: config.DATABASE_POOL_SIZE,
      preparedStatements: config.DATABASE_PREPARED_STATEMENTS,
      // Survived (requests answer 503, projections and listeners retry), but worth a line in the logs.
      onConnectionError: (error) => logger.warn({ err: error }, 'database connection lost'),
    }));
  await migrateToLatest(database.db);
  // Personal fields of events (GPS tracks, notes) are encrypted under their owner's key; erasure shreds the key.
  const vault = new PersonalKeyVault({
    db: database.db,
    serverSecret: config.AUTH_ENCRYPTION_KEY,
    now: () => clock.now(),
  });
  // Every path that appends (routes, process managers, sync, CLI through the runtime) gets this one store, so every
  // append of a run or goal event applies the inline read models in its own transaction (inline-projections.ts).
  const store = withInlineProjections(
    protectPersonalData(createPostgresEventStore(database), vault, personalDataRules),
    database.db,
    allProjectors,
  );
  const payments =
    overrides.payments !== undefined ? overrides.payments : createPaymentGateway(config, { db: database.db, clock });
  // FCM when configured; otherwise notifications are in-app only.
  const push = overrides.push ?? createPushSender(config);
  // A request waiting for read models ends the linger of whichever process applies them (read-models-wanted.ts):
  // a worker apart, or this process when it lingers. One that applies them itself without a linger asks nobody.
  const wanted = !config.RUN_WORKERS || config.WORKER_LINGER_MS ? readModelsWanted(database) : null;
  const projections = new ProjectionRunner({
    db: database.db,
    store,
    projectors: allProjectors,
    now: () => clock.now(),
    lingerMs: config.WORKER_LINGER_MS ?? 0,
    ...(wanted ? { onBehind: () => wanted.notify() } : {}),
    // Read-model tables are created (and changed ones rebuilt) one process at a time, as migrations are.
    exclusive: (work) => withSchemaLock(database, work),
    logger: {
      info: (f, m) => logger.info(f, m),
      warn: (f, m) => logger.warn(f, m),
      error: (f, m) => logger.error(f, m),
    },
  });
  await projections.prepare();
  // One Strava client for the routes and the sync process: they share its rate gate.
  const strava = createStravaClient(config, clock);
  const processes = new ProcessManagerHost({
    database,
    store,
    clock,
    managers: allProcessManagers({
      vault,
      payments,
      push,
      strava,
      box: createSecretBox(config.AUTH_ENCRYPTION_KEY),
    }),
    onError: (manager, error) => logger.error({ err: error, manager }, 'process manager failed'),
    lingerMs: config.WORKER_LINGER_MS ?? 0,
  });
  const changes = new ChangeHub();
  await changes.start(database);
  // The session epoch and the read cache's barrier, in one round trip on the LISTEN connection per wave of requests.
  const freshness = new RequestFreshness(database.db, changes);
  const readCache = createReadCache(database, changes, { freshness });
  const auth = createAuthCore({
    config,
    clock,
    logger,
    database,
    store,
    freshEpoch: () => freshness.forRequest().then((state) => state.epoch),
  });
  const errors = createErrorReporter({ dsn: config.SENTRY_DSN, environment: config.NODE_ENV });
  const app = createApp({
    config,
    logger,
    clock,
    database,
    projections,
    store,
    auth,
    changes,
    readCache,
    payments,
    push,
    errors,
    strava,
  });

  let closed = false;
  let stopHurrying: (() => Promise<void>) | null = null;
  return {
    config,
    logger,
    clock,
    database,
    store,
    projections,
    processes,
    changes,
    readCache,
    app,
    auth,
    payments,
    async startWorkers() {
      await projections.start();
      processes.start();
      // Without a linger there is nothing to end: no LISTEN connection for it.
      if (config.WORKER_LINGER_MS) stopHurrying = await hurryWhenAsked(database, projections);
    },
    async close() {
      if (closed) return;
      closed = true;
      await stopHurrying?.();
      await processes.stop();
      await projections.stop();
      await wanted?.flush();
      await changes.stop();
      readCache?.stop();
      await store.close();
      await errors.flush();
      if (!overrides.database) await database.close();
    },
  };
}
