import * as Sentry from '@sentry/node';

/** The error-reporting port: unexpected server errors go to the error service with the request's context. */
export interface ErrorReporter {
  capture(error: unknown, context?: Record<string, string | undefined>): void;
  /** Waits for queued reports to be sent (shutdown, tests). */
  flush(timeoutMs?: number): Promise<boolean>;
}

/** Reports nothing: development and tests without a DSN (the logs still carry every error). */
export const silentReporter: ErrorReporter = {
  capture() {},
  flush: async () => true,
};

/**
 * Sentry through the official SDK when SENTRY_DSN is set. Traces are sampled at 10% as §9 asks of production
 * builds; the SDK's automatic instrumentation stays off because the API reports errors explicitly from its one
 * error handler (so every report carries the request id).
 */
export function createErrorReporter(options: { dsn?: string | undefined; environment: string }): ErrorReporter {
  if (!options.dsn) return silentReporter;
  const client = Sentry.init({
    dsn: options.dsn,
    environment: options.environment,
    tracesSampleRate: 0.1,
    defaultIntegrations: false,
  });
  return {
    capture(error, context = {}) {
      Sentry.withScope((scope) => {
        for (const [key, value] of Object.entries(context)) if (value !== undefined) scope.setTag(key, value);
        Sentry.captureException(error);
      });
    },
    flush: async (timeoutMs = 2000) => (client ? await client.flush(timeoutMs) : true),
  };
}
