import * as Sentry from '@sentry/react';
import { scrubValue } from './scrub.ts';
import { type BuildEnv, sentryOptions } from './sentry-options.ts';

/** Where in the app a reported failure happened, as a tag to search by. */
export interface ReportContext {
  readonly area: string;
}

/**
 * The Sentry browser SDK, started (loaded on demand by index.ts, so no page's first load carries it). Tracing for
 * the 10% of page loads the sampling picks; Session Replay with every text and input masked and media blocked, its
 * recording events scrubbed too; uncompressed, so no worker is made from a blob: URL (the CSP's worker-src is 'self').
 */
export function startSentry(dsn: string, env: BuildEnv) {
  Sentry.init({
    ...sentryOptions(dsn, env),
    integrations: [
      Sentry.browserTracingIntegration(),
      Sentry.replayIntegration({
        maskAllText: true,
        maskAllInputs: true,
        blockAllMedia: true,
        useCompression: false,
        beforeAddRecordingEvent: (event) => scrubValue(event),
      }),
    ],
  });
  // Every kind of event, replay events (their URLs) included, whatever hook the SDK calls for it.
  Sentry.addEventProcessor((event) => scrubValue(event));
  return {
    capture(error: unknown, context: ReportContext): void {
      Sentry.captureException(error, { tags: { area: context.area } });
    },
  };
}
