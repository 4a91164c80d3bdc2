import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { serve } from '@hono/node-server';
import { loadConfigOrExit } from './config-or-exit.ts';
import { createRuntime } from './runtime.ts';
import { surviveDatabaseFaults } from './survive-database-faults.ts';
import { webSecurityHeaders } from './http/security-headers.ts';
import { webAppServer } from './web-static.ts';
import { withSameOriginApi } from './web-with-api.ts';

/** The built web app; `npm start` builds it first, so one command serves the whole product. */
const WEB_DIST = resolve(import.meta.dirname, '../web/dist');

/** Starts the API: configuration, database and migrations, workers, HTTP; stops gracefully on SIGINT/SIGTERM. */
async function main(): Promise<void> {
  const config = loadConfigOrExit();

  const runtime = await createRuntime(config);
  const { logger } = runtime;
  surviveDatabaseFaults(logger);
  if (config.RUN_WORKERS) await runtime.startWorkers();

  const server = serve({ fetch: runtime.app.fetch, port: config.PORT, hostname: config.HOST }, (info) => {
    logger.info(
      { port: info.port, database: runtime.database.kind, workers: config.RUN_WORKERS },
      `StrideStake API listening on http://localhost:${info.port}`,
    );
  });

  // The web app is optional here: an API-only deployment (or a fresh checkout without a build) just skips it. It
  // answers `/api/…` with the API itself, which is where a build without VITE_API_URL calls it (web-with-api.ts).
  const webServer = existsSync(resolve(WEB_DIST, 'index.html'))
    ? serve(
        {
          fetch: withSameOriginApi(webAppServer(WEB_DIST, webSecurityHeaders(config)).fetch, runtime.app.fetch),
          port: config.WEB_PORT,
          hostname: config.HOST,
        },
        (info) => {
          logger.info({ port: info.port }, `StrideStake web app on http://localhost:${info.port}`);
        },
      )
    : null;

  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    // Stop taking connections, let in-flight requests finish, then stop workers and close the database.
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    webServer?.close();
    server.close(async () => {
      await runtime.close();
      logger.info('stopped');
      process.exit(0);
    });
    if ('closeIdleConnections' in server) server.closeIdleConnections();
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
}

main().catch((error: unknown) => {
  process.stderr.write(`Start-up failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
