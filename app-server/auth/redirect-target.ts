/**
 * Where a link of ours may send the browser, decided by construction: every address is parsed with the WHATWG URL
 * parser (the one browsers use) and compared by its parts, never by a string prefix. A prefix test lets
 * `http://app.example@evil.example/` (userinfo), `http://app.example.evil.net/` (host suffix) and
 * `http://app.example:80800/` (port suffix) through, and an e-mailed link then hands the session to evil.example.
 *
 * Allowed targets:
 * - `APP_URL`'s origin (scheme, host and port exactly), any path;
 * - `PUBLIC_URL`'s origin, any path;
 * - each `AUTH_REDIRECT_ALLOW_LIST` entry (comma-separated absolute URLs):
 *   - `http:`/`https:` entries: the origin exactly; if the entry has a path, the target's path must be that path
 *     or continue it after a `/` (a segment boundary: `/app` allows `/app` and `/app/x`, never `/appx`);
 *   - any other scheme (the native shell's `stridestake://auth/callback`): scheme, host and path all exactly, so
 *     only that one callback, with any query.
 *   Entries that do not parse, or carry userinfo, allow nothing.
 *
 * A requested address is refused (and the answer is `APP_URL`, as GoTrue falls back to its site URL) when it is not
 * a string, is longer than 2048 characters, contains whitespace, control characters or a backslash anywhere (the
 * parser would silently strip or reinterpret them), does not parse as an absolute URL (so `//evil.example` and
 * `/path` are refused), has a username or password, or matches no allowed target. An allowed address is answered as
 * the parser serialises it (`href`), so what the browser follows is exactly what was checked.
 */

/** One allowed target, parsed once. */
type Allowed =
  | { readonly kind: 'origin'; readonly origin: string; readonly path: string }
  | { readonly kind: 'exact'; readonly protocol: string; readonly host: string; readonly path: string };

export type RedirectPolicy = {
  /** Where anything not allowed goes (APP_URL as configured). */
  readonly fallback: string;
  readonly allowed: readonly Allowed[];
};

const MAX_LENGTH = 2048;

/** Whitespace (ASCII and Unicode), C0/C1 control characters, DEL or a backslash anywhere. */
function hasRefusedCharacter(raw: string): boolean {
  for (const ch of raw) {
    const code = ch.codePointAt(0) ?? 0;
    if (code <= 0x20 || (code >= 0x7f && code <= 0x9f) || ch === '\\' || /\s/u.test(ch)) return true;
  }
  return false;
}
const WEB = new Set(['http:', 'https:']);

function parse(raw: string): URL | null {
  if (raw.length === 0 || raw.length > MAX_LENGTH || hasRefusedCharacter(raw)) return null;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return null;
  }
  if (url.username !== '' || url.password !== '') return null;
  return url;
}

function allowedOf(entry: string, anyPath: boolean): Allowed | null {
  const url = parse(entry.trim());
  if (!url) return null;
  if (WEB.has(url.protocol)) {
    // '/app/' and '/app' both mean the segment '/app'; '/' (or an origin alone) means the whole origin.
    const path = anyPath ? '' : url.pathname.replace(/\/+$/, '');
    return { kind: 'origin', origin: url.origin, path };
  }
  return { kind: 'exact', protocol: url.protocol, host: url.host, path: url.pathname };
}

/** The policy for a configuration: APP_URL and PUBLIC_URL by origin, the allow-list entries as documented above. */
export function redirectPolicy(config: {
  readonly APP_URL: string;
  readonly PUBLIC_URL: string;
  readonly AUTH_REDIRECT_ALLOW_LIST: string;
}): RedirectPolicy {
  const allowed = [
    allowedOf(config.APP_URL, true),
    allowedOf(config.PUBLIC_URL, true),
    ...config.AUTH_REDIRECT_ALLOW_LIST.split(',')
      .filter((entry) => entry.trim() !== '')
      .map((entry) => allowedOf(entry, false)),
  ].filter((a): a is Allowed => a !== null);
  return { fallback: config.APP_URL, allowed };
}

function matches(url: URL, allowed: Allowed): boolean {
  if (allowed.kind === 'exact') {
    return url.protocol === allowed.protocol && url.host === allowed.host && url.pathname === allowed.path;
  }
  if (!WEB.has(url.protocol) || url.origin !== allowed.origin) return false;
  return allowed.path === '' || url.pathname === allowed.path || url.pathname.startsWith(`${allowed.path}/`);
}

/**
 * The address a link may redirect to: `requested` as parsed and re-serialised when it matches an allowed target,
 * else the policy's fallback (APP_URL). The one gate for every redirect and link target the auth service takes from
 * outside.
 */
export function safeRedirect(requested: unknown, policy: RedirectPolicy): string {
  if (typeof requested !== 'string') return policy.fallback;
  const url = parse(requested);
  if (!url) return policy.fallback;
  return policy.allowed.some((allowed) => matches(url, allowed)) ? url.href : policy.fallback;
}
