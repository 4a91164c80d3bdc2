import { createHash } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import { secureHeaders } from 'hono/secure-headers';
import type { Config } from '../config.ts';

/**
 * The one header policy of the product, for the API (app.ts) and the web app's static server (web-static.ts); the
 * same rules are written out for nginx in deploy/nginx.conf.
 *
 * - No page may be framed (`frame-ancestors 'none'`, `X-Frame-Options: DENY`): the money screens cannot be clickjacked.
 * - Every answer says `nosniff`; referrers leave only as an origin to other sites (`strict-origin-when-cross-origin`:
 *   the Strava OAuth round trip needs no referrer either way); `Cross-Origin-Opener-Policy: same-origin`.
 * - HSTS only where the address is https (a browser that saw it on http would ignore it; on localhost it would pin
 *   https for every port).
 * - The web pages' CSP allows the app's own files, its API (fetches and the SSE stream), its service worker and
 *   manifest, images and fonts from itself or data:/blob: URIs, and Stripe's hosts only when Stripe is configured
 *   (otherwise the card form is the local gateway's, on the page), and the web build's Sentry DSN origin only when
 *   VITE_SENTRY_DSN is set (error reports: connect-src only). The build's inline scripts (the first screen's
 *   requests in app.html) are allowed by their SHA-256, worked out from the page being served; inline styles (the
 *   prerendered landing page's stylesheet, React's style attributes) are allowed.
 * - API answers carry `default-src 'none'`: JSON needs nothing, and an answer opened as a page can run nothing.
 */
export type SecurityHeadersConfig = Pick<Config, 'PUBLIC_URL' | 'APP_URL' | 'STRIPE_SECRET_KEY' | 'VITE_SENTRY_DSN'>;

export const REFERRER_POLICY = 'strict-origin-when-cross-origin';
export const HSTS = 'max-age=31536000; includeSubDomains';

/** Stripe.js, its frames (card fields, 3-D Secure) and its API, per Stripe's CSP guidance. */
export const STRIPE_SOURCES = {
  script: ['https://js.stripe.com', 'https://*.js.stripe.com'],
  frame: ['https://js.stripe.com', 'https://*.js.stripe.com', 'https://hooks.stripe.com', 'https://m.stripe.network'],
  connect: ['https://api.stripe.com', 'https://m.stripe.network'],
} as const;

const isHttps = (url: string) => new URL(url).protocol === 'https:';

/** The API's origin as the web app calls it (PUBLIC_URL), for connect-src. */
const apiOrigin = (config: SecurityHeadersConfig) => new URL(config.PUBLIC_URL).origin;

/** The origin the web build reports errors to (its Sentry DSN's), for connect-src; none without a DSN. */
const errorReportingOrigins = (config: SecurityHeadersConfig): string[] =>
  config.VITE_SENTRY_DSN ? [new URL(config.VITE_SENTRY_DSN).origin] : [];

/** The directives of the web pages' CSP; `scriptHashes` are the page's inline scripts ('sha256-…'). */
export function webCspDirectives(config: SecurityHeadersConfig, scriptHashes: readonly string[] = []) {
  const stripe = !!config.STRIPE_SECRET_KEY;
  const api = apiOrigin(config);
  const self = "'self'";
  return {
    defaultSrc: [self],
    baseUri: [self],
    objectSrc: ["'none'"],
    frameAncestors: ["'none'"],
    formAction: [self],
    scriptSrc: [self, ...scriptHashes.map((hash) => `'${hash}'`), ...(stripe ? STRIPE_SOURCES.script : [])],
    styleSrc: [self, "'unsafe-inline'"],
    imgSrc: [self, 'data:', 'blob:'],
    fontSrc: [self, 'data:'],
    connectSrc: [
      self,
      ...(api === new URL(config.APP_URL).origin ? [] : [api]),
      ...(stripe ? STRIPE_SOURCES.connect : []),
      ...errorReportingOrigins(config),
    ],
    frameSrc: stripe ? [...STRIPE_SOURCES.frame] : ["'none'"],
    workerSrc: [self],
    manifestSrc: [self],
    mediaSrc: [self],
    ...(isHttps(config.APP_URL) ? { upgradeInsecureRequests: [] } : {}),
  };
}

/** Directives as a header value (camelCase names to kebab-case, as secureHeaders writes them). */
export function cspHeader(directives: Record<string, readonly string[]>): string {
  return Object.entries(directives)
    .map(([name, values]) => [name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`), ...values].join(' '))
    .join('; ');
}

/** SHA-256 sources of the inline scripts of an HTML page (`<script>` without src), as CSP spells them. */
export function inlineScriptHashes(html: string): string[] {
  const hashes: string[] = [];
  for (const match of html.matchAll(/<script(\s[^>]*)?>([\s\S]*?)<\/script>/gi)) {
    if (/\ssrc\s*=/i.test(match[1] ?? '')) continue;
    hashes.push(
      `sha256-${createHash('sha256')
        .update(match[2] ?? '', 'utf8')
        .digest('base64')}`,
    );
  }
  return hashes;
}

/** The headers of the web app's static server: a middleware for every answer, and each page's own CSP. */
export interface WebSecurityHeaders {
  /** Sets every header but a page's CSP (a page's own, set by the server with `pagePolicy`, is kept). */
  readonly middleware: MiddlewareHandler;
  /** The CSP of one HTML page, allowing its inline scripts by hash. */
  pagePolicy(html: string): string;
}

export function webSecurityHeaders(config: SecurityHeadersConfig): WebSecurityHeaders {
  const middleware = secureHeaders({
    // A page's CSP (with its inline scripts' hashes) is set by the server and kept; other files get this one.
    overwrite: false,
    contentSecurityPolicy: webCspDirectives(config),
    xFrameOptions: 'DENY',
    referrerPolicy: REFERRER_POLICY,
    strictTransportSecurity: isHttps(config.APP_URL) ? HSTS : false,
    crossOriginOpenerPolicy: 'same-origin',
    // The files are the app's own; nothing else embeds them.
    crossOriginResourcePolicy: 'same-origin',
  });
  return {
    middleware,
    pagePolicy: (html) => cspHeader(webCspDirectives(config, inlineScriptHashes(html))),
  };
}

/** The headers every API answer carries (JSON, errors, SSE, the OpenAPI document). */
export function apiSecurityHeaderList(config: SecurityHeadersConfig): readonly (readonly [string, string])[] {
  return [
    ['X-Content-Type-Options', 'nosniff'],
    ['X-Frame-Options', 'DENY'],
    ['Content-Security-Policy', "default-src 'none'; frame-ancestors 'none'"],
    ['Referrer-Policy', REFERRER_POLICY],
    ['Cross-Origin-Opener-Policy', 'same-origin'],
    ...(isHttps(config.PUBLIC_URL) ? [['Strict-Transport-Security', HSTS] as const] : []),
  ];
}

/**
 * The API's headers, as secureHeaders would set them, but set before the route runs: a header set afterwards makes
 * Hono rebuild the route's answer as a full WHATWG Response (see the CORS note in app.ts), a header set before is
 * merged into it for free, and error and not-found answers made from the same context carry it too.
 */
export function apiSecurityHeaders(config: SecurityHeadersConfig): MiddlewareHandler {
  const headers = apiSecurityHeaderList(config);
  return (c, next) => {
    for (const [name, value] of headers) c.header(name, value);
    return next();
  };
}

/**
 * The web server's headers as nginx `add_header` lines, for deploy/nginx.conf (written at deploy by
 * app-server/cli/nginx-security-headers.ts): the same policy, with every page's inline scripts allowed by hash (nginx
 * sends one CSP for all pages; a hash of another page's script allows nothing more than the build's own code).
 */
export function nginxHeaderLines(config: SecurityHeadersConfig, pages: readonly string[]): string[] {
  const hashes = [...new Set(pages.flatMap((html) => inlineScriptHashes(html)))];
  const headers: [string, string][] = [
    ['Content-Security-Policy', cspHeader(webCspDirectives(config, hashes))],
    ['X-Frame-Options', 'DENY'],
    ['X-Content-Type-Options', 'nosniff'],
    ['Referrer-Policy', REFERRER_POLICY],
    ['Cross-Origin-Opener-Policy', 'same-origin'],
    ['Cross-Origin-Resource-Policy', 'same-origin'],
    ...(isHttps(config.APP_URL) ? [['Strict-Transport-Security', HSTS] as [string, string]] : []),
  ];
  return headers.map(([name, value]) => `add_header ${name} "${value.replaceAll('"', '\\"')}" always;`);
}
