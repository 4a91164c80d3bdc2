import { describe, expect, it } from 'vitest';
import { REDACTED } from './scrub.ts';
import { reportingDsn, SAMPLING, sentryOptions } from './sentry-options.ts';

const DSN = 'https://public@o1.ingest.sentry.io/42';

describe('the web app’s Sentry configuration (§9)', () => {
  it('samples traces at 10%, replays 10% of sessions and every session with an error', () => {
    expect(SAMPLING).toEqual({ tracesSampleRate: 0.1, replaysSessionSampleRate: 0.1, replaysOnErrorSampleRate: 1.0 });
    const options = sentryOptions(DSN, { PROD: true, MODE: 'production', VITE_SENTRY_DSN: DSN });
    expect(options).toMatchObject({ dsn: DSN, ...SAMPLING, sendDefaultPii: false, environment: 'production' });
  });

  it('reports only from a production build with a DSN', () => {
    expect(reportingDsn({ PROD: true, MODE: 'production', VITE_SENTRY_DSN: DSN })).toBe(DSN);
    expect(reportingDsn({ PROD: false, MODE: 'development', VITE_SENTRY_DSN: DSN })).toBeNull();
    expect(reportingDsn({ PROD: true, MODE: 'test', VITE_SENTRY_DSN: DSN })).toBeNull();
    expect(reportingDsn({ PROD: true, MODE: 'production' })).toBeNull();
    expect(reportingDsn({ PROD: true, MODE: 'production', VITE_SENTRY_DSN: '  ' })).toBeNull();
    expect(reportingDsn({ PROD: true, MODE: 'production', VITE_SENTRY_DSN: 'not a url' })).toBeNull();
    expect(reportingDsn({ PROD: true, MODE: 'production', VITE_SENTRY_DSN: 'javascript:alert(1)' })).toBeNull();
  });

  it('scrubs errors, transactions and breadcrumbs before they are sent', () => {
    const { beforeSend, beforeSendTransaction, beforeBreadcrumb } = sentryOptions(DSN, {
      PROD: true,
      MODE: 'production',
    });
    const message = 'Save failed for runner@example.com at 40.712776,-74.005974';
    expect(JSON.stringify(beforeSend({ message }))).not.toMatch(/runner@example\.com|40\.712776|-74\.005974/);
    expect(beforeSendTransaction({ request: { url: 'https://app.example/x?access_token=abc' } })).toEqual({
      request: { url: `https://app.example/x?access_token=${REDACTED}` },
    });
    expect(beforeBreadcrumb({ category: 'fetch', data: { url: 'https://api.example/runs?refresh_token=xyz' } })).toEqual(
      { category: 'fetch', data: { url: `https://api.example/runs?refresh_token=${REDACTED}` } },
    );
  });

  it('scrubs the spans it streams on their own: a fetch span with an e-mail in its query string', () => {
    const { beforeSendSpan } = sentryOptions(DSN, { PROD: true, MODE: 'production' });
    // As the SDK's span streaming hands a span over (a CI run sent this one with the e-mail in clear).
    const span = {
      name: 'GET 127.0.0.1',
      span_id: '9843448edffcdab8',
      trace_id: 'b7ba95478398458e81f5542769d59315',
      attributes: {
        'url.full': { value: 'http://127.0.0.1:3000/health?access_token=abc&email=dee.strider%2Bruns%40example.com' },
        'url.query': { value: 'access_token=abc&email=dee.strider%2Bruns%40example.com' },
        'user.email': { value: 'dee.strider+runs@example.com' },
      },
    };
    const sent = JSON.stringify(beforeSendSpan(span));
    expect(sent).not.toMatch(/dee\.strider|access_token=abc/);
    // The SDK's own ids pass unchanged.
    expect(sent).toContain('9843448edffcdab8');
  });
});
