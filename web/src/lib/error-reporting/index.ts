import type { ReportContext } from './sentry-client.ts';
import { type BuildEnv, reportingDsn } from './reporting-dsn.ts';

/**
 * The app's error reporting (§8, §9): Sentry in production builds with VITE_SENTRY_DSN set, nothing otherwise. The
 * SDK is a chunk of its own, fetched a few seconds after the page has loaded (at once when something fails), so
 * neither page's first load grows (tests/e2e/bundle-budget.test.ts); an error thrown before it is in is kept and
 * sent when it is.
 */
const env: BuildEnv = {
  PROD: import.meta.env.PROD,
  MODE: import.meta.env.MODE,
  VITE_SENTRY_DSN: import.meta.env.VITE_SENTRY_DSN as string | undefined,
};
const dsn = reportingDsn(env);

type Client = { capture(error: unknown, context: ReportContext): void };
let client: Promise<Client | null> | null = null;
const early: unknown[] = [];
/** An error before the SDK is in: kept, and the SDK fetched at once to send it. */
const keepEarly = (event: ErrorEvent | PromiseRejectionEvent) => {
  early.push('reason' in event ? event.reason : (event.error ?? event.message));
  void load();
};

/**
 * How long after the page's load the SDK is fetched when nothing failed: past the first load's quiet second
 * (tests/bench/web/first-load.ts), so the SDK (about as big as the app's first screen) is never part of it.
 */
const SDK_DELAY_MS = 5_000;

function load(): Promise<Client | null> {
  client ??= import('./sentry-client.ts')
    .then(({ startSentry }) => {
      const started = startSentry(dsn as string, env);
      window.removeEventListener('error', keepEarly);
      window.removeEventListener('unhandledrejection', keepEarly);
      for (const error of early.splice(0)) started.capture(error, { area: 'start-up' });
      return started;
    })
    // A blocked or failed download must not break the app; nothing is reported then.
    .catch(() => null);
  return client;
}

/** Starts error reporting once the page is idle (a no-op outside production builds with a DSN). */
export function startErrorReporting(): void {
  if (!dsn || client) return;
  window.addEventListener('error', keepEarly);
  window.addEventListener('unhandledrejection', keepEarly);
  const idle = () => ('requestIdleCallback' in window ? requestIdleCallback(() => void load()) : void load());
  const whenIdle = () => setTimeout(idle, SDK_DELAY_MS);
  if (document.readyState === 'complete') whenIdle();
  else window.addEventListener('load', whenIdle, { once: true });
}

/** Reports a failure the app handled but must be told of (push registration, token save…). */
export function reportError(error: unknown, context: ReportContext): void {
  if (!dsn) return;
  void load().then((started) => started?.capture(error, context));
}

/** Whether this build reports errors (production with a DSN). */
export const errorReportingEnabled = (): boolean => dsn !== null;
