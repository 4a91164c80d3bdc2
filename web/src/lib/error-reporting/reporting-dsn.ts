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
