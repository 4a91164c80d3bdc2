import { scrubValue } from './scrub.ts';

/** §9 Error reporting: traces 10%, replays of 10% of sessions and of every session with an error. */
export const SAMPLING = {
  tracesSampleRate: 0.1,
  replaysSessionSampleRate: 0.1,
  replaysOnErrorSampleRate: 1.0,
} as const;

/** What the build says about itself (import.meta.env). */
export interface BuildEnv {
  readonly PROD: boolean;
  readonly MODE: string;
  readonly VITE_SENTRY_DSN?: string | undefined;
}

/**
 * The DSN to report to, or null: only a production build with a DSN reports (§9). A development server, a test
 * build or a build without VITE_SENTRY_DSN sends nothing, and a DSN that is not an http(s) URL is ignored rather
 * than breaking the app.
 */
export function reportingDsn(env: BuildEnv): string | null {
  const dsn = env.VITE_SENTRY_DSN?.trim();
  if (!env.PROD || env.MODE === 'test' || !dsn) return null;
  try {
    const url = new URL(dsn);
    return url.protocol === 'https:' || url.protocol === 'http:' ? dsn : null;
  } catch {
    return null;
  }
}

/** The scrubbing hooks (scrub.ts) for every kind of thing the SDK sends: errors, transactions, breadcrumbs. */
export const scrubbingHooks = {
  beforeSend: <T>(event: T): T => scrubValue(event),
  beforeSendTransaction: <T>(event: T): T => scrubValue(event),
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
