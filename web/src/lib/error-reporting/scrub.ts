/**
 * What must never leave the browser in an error report (§9, docs/SECURITY.md): a runner's GPS fixes (where they live
 * and run), their e-mail address, and any token (session, refresh, OAuth code or state, push token). Error messages,
 * breadcrumbs (console lines, fetched URLs), request data and replay events pass through here before they are sent.
 *
 * Two passes: by key (a field named like a secret or a position is replaced whole, whatever its value), and by text
 * (every string is searched for e-mail addresses, bearer tokens, JWTs, `key=value` secrets in URLs and bodies, and
 * coordinates). Pure: no I/O, no SDK; the Sentry options apply it (sentry-options.ts).
 */

export const REDACTED = '[redacted]';

/** Fields replaced whole, by name (case and `-`/`_` ignored): secrets, positions and tracks, addresses. */
const SECRET_KEYS = new Set(
  [
    'authorization',
    'cookie',
    'setcookie',
    'password',
    'secret',
    'clientsecret',
    'token',
    'accesstoken',
    'refreshtoken',
    'idtoken',
    'pushtoken',
    'apikey',
    'code',
    'state',
    'codeverifier',
    'email',
    'emailaddress',
    'lat',
    'lng',
    'lon',
    'latitude',
    'longitude',
    'coords',
    'coordinates',
    'position',
    'positions',
    'fix',
    'fixes',
    'gpsdata',
    'track',
    'polyline',
    'summarypolyline',
    'route',
  ],
);

/**
 * The SDK's own identifiers and bookkeeping, passed unchanged: random ids it made (the long-string rule would take an
 * event id for a token) and numbers that are times, not places.
 */
const SDK_KEYS = new Set([
  'event_id',
  'trace_id',
  'span_id',
  'parent_span_id',
  'replay_id',
  'sid',
  'segment_id',
  'debug_id',
  'timestamp',
  'start_timestamp',
  'sent_at',
]);

const normalKey = (key: string) => key.toLowerCase().replace(/[-_\s]/g, '');

/** Whether a field of this name is replaced whole. */
export const isSecretKey = (key: string): boolean => SECRET_KEYS.has(normalKey(key));

/** Names whose value follows `=` or `:` in URLs, form bodies, JSON and headers written as text. */
const SECRET_PARAM =
  'access_token|refresh_token|id_token|push_token|token|code|state|code_verifier|password|secret|client_secret|api_key|apikey|authorization|email|lat|lng|lon|latitude|longitude';

const TEXT_RULES: readonly (readonly [RegExp, string])[] = [
  // JSON text: "access_token":"…", "latitude": 51.5
  [new RegExp(`("(?:${SECRET_PARAM})"\\s*:\\s*)("(?:[^"\\\\]|\\\\.)*"|-?[\\d.eE+-]+)`, 'gi'), `$1"${REDACTED}"`],
  // Query strings, fragments and form bodies: access_token=…&state=…
  [new RegExp(`(\\b(?:${SECRET_PARAM})=)[^&#\\s"'<>]*`, 'gi'), `$1${REDACTED}`],
  // Authorization headers written out: Bearer …, Basic …
  [/\b(Bearer|Basic)\s+[\w.~+/=-]+/gi, `$1 ${REDACTED}`],
  // JWTs anywhere (a session's access token): three base64url parts, the first a JSON header ("eyJ").
  [/\beyJ[\w-]*\.[\w-]+(?:\.[\w-]*)?/g, REDACTED],
  // E-mail addresses, also percent-encoded (%40) as in a URL.
  [/[\w.!#$%&'*+/=?^`{|}~-]+(?:@|%40)[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/g, '[email]'],
  // Coordinates: a latitude/longitude pair, or any decimal with 4+ places (a fix's precision: about 10 m).
  [/-?\d{1,3}\.\d+\s*[,;/ ]\s*-?\d{1,3}\.\d+/g, '[coordinates]'],
  [/-?\b\d{1,3}\.\d{4,}/g, '[coordinates]'],
  // Long opaque strings (hex or base64url of 32+ characters): refresh tokens, push tokens, OAuth codes.
  [/[A-Za-z0-9_-]{32,}/g, REDACTED],
];

/** A string with every e-mail address, token and coordinate replaced. */
export function scrubText(text: string): string {
  let out = text;
  for (const [pattern, replacement] of TEXT_RULES) out = out.replace(pattern, replacement);
  return out;
}

/** How deep an event is walked; deeper values are dropped rather than sent unread. */
const MAX_DEPTH = 40;

/**
 * A copy of `value` with secret fields replaced whole and every string scrubbed. Numbers, booleans and null pass
 * unchanged unless their field is secret (a bare `51.5` under `latitude`). Cycles and very deep values are cut.
 */
export function scrubValue<T>(value: T): T {
  return walk(value, 0, new WeakSet()) as T;
}

function walk(value: unknown, depth: number, seen: WeakSet<object>): unknown {
  if (typeof value === 'string') return scrubText(value);
  if (value === null || typeof value !== 'object') return value;
  if (depth > MAX_DEPTH || seen.has(value)) return REDACTED;
  seen.add(value);
  if (Array.isArray(value)) return value.map((item) => walk(item, depth + 1, seen));
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    if (SDK_KEYS.has(key) && (typeof item === 'string' || typeof item === 'number')) out[key] = item;
    else if (isSecretKey(key) && item !== null && item !== undefined) out[key] = REDACTED;
    else out[key] = walk(item, depth + 1, seen);
  }
  return out;
}
