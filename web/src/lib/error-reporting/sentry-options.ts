import type { BuildEnv } from './reporting-dsn.ts';
import { scrubValue } from './scrub.ts';

export { type BuildEnv, reportingDsn } from './reporting-dsn.ts';

/** §9 Error reporting: traces 10%, replays of 10% of sessions and of every session with an error. */
export const SAMPLING = {
  tracesSampleRate: 0.1,
  replaysSessionSampleRate: 0.1,
  replaysOnErrorSampleRate: 1.0,
} as const;

/**
 * The scrubbing hooks (scrub.ts) for every kind of thing the SDK sends: errors, transactions, breadcrumbs, and the
 * spans it streams on their own (a fetch span's `url.full` once carried a runner's e-mail from a query string to the
 * server), logs and metrics. tests/lint/sentry-hooks.test.ts fails when the SDK has a `before…` hook not set here.
 */
export const scrubbingHooks = {
  beforeSend: <T>(event: T): T => scrubValue(event),
  beforeSendTransaction: <T>(event: T): T => scrubValue(event),
  beforeSendSpan: <T>(span: T): T => scrubValue(span),
  beforeSendLog: <T>(log: T): T => scrubValue(log),
  beforeSendMetric: <T>(metric: T): T => scrubValue(metric),
  beforeBreadcrumb: <T>(breadcrumb: T): T => scrubValue(breadcrumb),
} as const;

/**
 * The SDK's options but the integrations (which need the SDK itself: sentry-client.ts). No personal data by
 * default (no IP address, no cookies); the environment is the build's mode.
 */
export function sentryOptions(dsn: string, env: BuildEnv) {
  return {
    dsn,
    environment: env.MODE,
    sendDefaultPii: false,
    ...SAMPLING,
    ...scrubbingHooks,
  };
}
