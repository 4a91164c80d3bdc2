import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { redirectPolicy, safeRedirect } from './redirect-target.ts';

/** 1000 per property here; `REDIRECT_FUZZ_RUNS=10000 npx vitest run app-server/auth/redirect-target.test.ts` for more. */
const RUNS = Number(process.env.REDIRECT_FUZZ_RUNS ?? 1000);

const APP_URL = 'http://localhost:5173';
const PUBLIC_URL = 'http://127.0.0.1:3962';
const policy = redirectPolicy({
  APP_URL,
  PUBLIC_URL,
  AUTH_REDIRECT_ALLOW_LIST:
    ' stridestake://auth/callback, https://app.example.com/welcome/ ,https://partner.example.org,not a url,,http://x@user.example',
});

/** The addresses a string may start with to look allowed. */
const ALLOWED_BASES = [
  APP_URL,
  `${APP_URL}/app`,
  PUBLIC_URL,
  'https://app.example.com/welcome',
  'https://partner.example.org',
  'stridestake://auth/callback',
];
const HOSTS = ['localhost:5173', '127.0.0.1:3962', 'app.example.com', 'partner.example.org', 'auth'];

/**
 * What the answer must be, whatever was asked: APP_URL itself, or an absolute URL without userinfo, in the parser's
 * own serialisation, whose origin is one of the allowed origins exactly (with the path rule for the entry that has a
 * path) or which is exactly the native callback.
 */
function expectSafe(answer: string): void {
  if (answer === APP_URL) return;
  const url = new URL(answer);
  expect(url.href).toBe(answer);
  expect(url.username).toBe('');
  expect(url.password).toBe('');
  if (url.protocol === 'stridestake:') {
    expect({ host: url.host, path: url.pathname }).toEqual({ host: 'auth', path: '/callback' });
    return;
  }
  expect([
    'http://localhost:5173',
    'http://127.0.0.1:3962',
    'https://partner.example.org',
    'https://app.example.com',
  ]).toContain(url.origin);
  if (url.origin === 'https://app.example.com') {
    expect(url.pathname === '/welcome' || url.pathname.startsWith('/welcome/')).toBe(true);
  }
}

const whitespace = fc.constantFrom(
  ' ',
  '\t',
  '\n',
  '\r',
  '\u0000',
  '\u0001',
  '\u001f',
  '\u007f',
  '\u0085',
  '\u00a0',
  '\u2028',
  '\u3000',
  '\ufeff',
);
const evilHost = fc.constantFrom('evil.example', 'evil.net', 'attacker.test', '169.254.169.254', '[::1]', '0x7f.1');
const base = fc.constantFrom(...ALLOWED_BASES);
const host = fc.constantFrom(...HOSTS);

/** Hostile addresses built around the allowed ones, one family of attack each. */
const hostile = fc.oneof(
  // userinfo: the allowed address as user name (and password) of another host
  fc.tuple(base, evilHost).map(([b, e]) => `${b}@${e}/`),
  fc.tuple(host, evilHost).map(([h, e]) => `http://${h}@${e}/`),
  fc.tuple(host, evilHost).map(([h, e]) => `https://${h}:secret@${e}/`),
  fc.tuple(evilHost, host).map(([e, h]) => `http://${e}@${h}/`), // an allowed host with userinfo is still refused
  // host suffix and port suffix
  fc
    .tuple(host, fc.constantFrom('.evil.net', '.evil.example', 'evil.net', '-evil.net'))
    .map(([h, s]) => `https://${h}${s}/`),
  fc.tuple(base, fc.constantFrom('.evil.net', '0', '00', '1', ':80', ':443', ':5173')).map(([b, s]) => `${b}${s}/`),
  fc.constantFrom(
    'http://localhost:51730/',
    'http://127.0.0.1:39620/',
    'http://localhost:5174/',
    'https://localhost:5173/',
  ),
  fc.constantFrom('http://app.example.com/welcome', 'http://partner.example.org/', 'https://app.example.com/'),
  // backslashes
  fc.tuple(host, evilHost).map(([h, e]) => `http://${h}\\@${e}/`),
  fc.tuple(evilHost, base).map(([e, b]) => `${b}\\\\${e}`),
  fc.tuple(evilHost).map(([e]) => `/\\${e}/`),
  // percent-encoding
  fc.tuple(host, evilHost).map(([h, e]) => `http://${h}%40${e}/`),
  fc.tuple(host, evilHost).map(([h, e]) => `http://${encodeURIComponent(h)}@${e}/`),
  fc.tuple(host, evilHost).map(([h, e]) => `http://${h}%2F@${e}/`),
  fc.tuple(host, evilHost).map(([h, e]) => `http://${e}%2F${h}/`),
  fc.tuple(base).map(([b]) => encodeURIComponent(`${b}@evil.example/`)),
  fc.constantFrom('http%3A%2F%2Fevil.example%2F', 'https://app.example.com/welcome%2F..%2F..%2Fadmin'),
  // IDN lookalikes (Cyrillic, fullwidth, punycode)
  fc.constantFrom(
    'http://lоcalhost:5173/', // Cyrillic о
    'https://аpp.example.com/welcome', // Cyrillic а
    'https://partner.examplе.org/', // Cyrillic е
    'http://ｌｏｃａｌｈｏｓｔ.evil.example/',
    'https://xn--pp-8cd.example.com/welcome',
    'https://app.example.com。evil.net/welcome',
    'https://partner.example.org\u200b.evil.net/',
  ),
  // other schemes
  fc.tuple(base).map(([b]) => `javascript:alert(1)//${b}`),
  fc.constantFrom(
    'javascript:alert(document.cookie)',
    'JaVaScRiPt:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==',
    'vbscript:msgbox(1)',
    'file:///etc/passwd',
    'blob:http://localhost:5173/uuid',
    'about:blank',
  ),
  // scheme-relative and relative
  fc.tuple(evilHost).map(([e]) => `//${e}/`),
  fc.tuple(evilHost).map(([e]) => `///${e}/`),
  fc.constantFrom('/app', '/\\evil.example', '\\\\evil.example', '.evil.example', 'localhost:5173/app'),
  // uppercase schemes and hosts
  fc.tuple(evilHost).map(([e]) => `HTTP://${e.toUpperCase()}/`),
  fc.tuple(host, evilHost).map(([h, e]) => `HTTPS://${h.toUpperCase()}@${e}/`),
  // custom-scheme lookalikes
  fc.constantFrom(
    'stridestake://auth/callbackx',
    'stridestake://auth/callback/',
    'stridestake://auth/callback/../../evil',
    'stridestake://auth/callback%2F..%2Fevil',
    'stridestake://auth.evil.net/callback',
    'stridestake://evil@auth/callback',
    'stridestake://auth:1/callback',
    'stridestake://AUTH/callback',
    'stridestake://',
    'stridestake://evil.example',
    'stridestake:auth/callback',
    'stridestake:///auth/callback',
    'stridestake-evil://auth/callback',
    'stridestakes://auth/callback',
    'evil-stridestake://auth/callback',
    'stridestake.evil://auth/callback',
  ),
  // the path rule of the entry with a path
  fc.constantFrom(
    'https://app.example.com/welcomex',
    'https://app.example.com/welcome.evil',
    'https://app.example.com/welcome/../admin',
    'https://app.example.com/welcome/%2e%2e/admin',
    'https://app.example.com/',
    'https://app.example.com/admin?next=/welcome',
  ),
);

/** Random strings made of the pieces attacks are made of, so combinations nobody listed are tried too. */
const PIECES = [
  'http:',
  'https:',
  'HTTP:',
  'stridestake:',
  'javascript:',
  'data:',
  '//',
  '/',
  '\\',
  '@',
  ':',
  '%40',
  '%2F',
  '%2f',
  '%5C',
  '%00',
  '#',
  '?',
  '.',
  '..',
  'localhost',
  ':5173',
  '127.0.0.1',
  ':3962',
  'app.example.com',
  'partner.example.org',
  '/welcome',
  'auth',
  '/callback',
  'evil.example',
  '.evil.net',
  'xn--',
  'о',
  ' ',
  '\t',
  '\n',
  '\u0000',
  '\u00a0',
];
const pieces = fc.array(fc.constantFrom(...PIECES), { minLength: 1, maxLength: 12 }).map((p) => p.join(''));

const wrapped = fc
  .tuple(fc.option(whitespace, { nil: '' }), fc.oneof(hostile, base), fc.option(whitespace, { nil: '' }))
  .filter(([before, , after]) => before !== '' || after !== '')
  .map(([before, address, after]) => `${before}${address}${after}`);

describe('redirect targets (parsed, compared by origin and exact callback)', () => {
  it('never answers anything but APP_URL or an allowed origin / the exact callback, for hostile addresses', () => {
    fc.assert(
      fc.property(hostile, (requested) => {
        const answer = safeRedirect(requested, policy);
        expectSafe(answer);
        expect(new URL(answer).hostname).not.toMatch(/evil|attacker|169\.254|\[::1\]|0x7f/);
      }),
      { numRuns: RUNS },
    );
  });

  it('refuses any address with whitespace or control characters before, after or inside it', () => {
    fc.assert(
      fc.property(wrapped, (requested) => {
        expect(safeRedirect(requested, policy)).toBe(APP_URL);
      }),
      { numRuns: RUNS },
    );
  });

  it('stays safe for random combinations of attack pieces, arbitrary strings and arbitrary URLs', () => {
    fc.assert(
      fc.property(fc.oneof(pieces, fc.string(), fc.webUrl({ withQueryParameters: true, withFragments: true })), (r) => {
        expectSafe(safeRedirect(r, policy));
      }),
      { numRuns: RUNS },
    );
  });

  it('refuses each listed attack, including the reported ones', () => {
    for (const requested of [
      'http://127.0.0.1:3962@evil.example/',
      'http://localhost:5173@evil.example/',
      'http://127.0.0.1:39620/',
      'https://app.example.com.evil.net/welcome',
      'http://localhost:5173\\@evil.example/',
      '//evil.example/',
      ' http://evil.example/',
      'javascript:alert(1)',
      'stridestake://evil.example',
      'stridestake://auth/callback/../x',
      'https://app.example.com/welcomex',
      'http://x@localhost:5173/app', // an allowed origin, but with userinfo
      'http://user.example/', // the allow-list entry that carried userinfo allows nothing
    ]) {
      expect(safeRedirect(requested, policy), requested).toBe(APP_URL);
    }
    expect(safeRedirect(undefined, policy)).toBe(APP_URL);
    expect(safeRedirect(null, policy)).toBe(APP_URL);
    expect(safeRedirect(42, policy)).toBe(APP_URL);
    expect(safeRedirect('', policy)).toBe(APP_URL);
    expect(safeRedirect(`${APP_URL}/${'a'.repeat(2048)}`, policy)).toBe(APP_URL);
  });

  it('keeps allowed addresses: APP_URL and PUBLIC_URL paths, allowed origins with paths and queries, the callback', () => {
    const kept: [string, string][] = [
      ['http://localhost:5173', 'http://localhost:5173/'],
      ['http://localhost:5173/app', 'http://localhost:5173/app'],
      ['http://localhost:5173/app/goals?tab=week&x=%20y#old', 'http://localhost:5173/app/goals?tab=week&x=%20y#old'],
      ['HTTP://LOCALHOST:5173/app', 'http://localhost:5173/app'],
      ['http://localhost:5173/a/../app', 'http://localhost:5173/app'],
      ['http://127.0.0.1:3962/somewhere', 'http://127.0.0.1:3962/somewhere'],
      ['https://app.example.com/welcome', 'https://app.example.com/welcome'],
      ['https://app.example.com/welcome/', 'https://app.example.com/welcome/'],
      ['https://app.example.com/welcome/step-2?from=mail', 'https://app.example.com/welcome/step-2?from=mail'],
      ['https://app.example.com:443/welcome', 'https://app.example.com/welcome'],
      ['https://partner.example.org/any/path?q=1', 'https://partner.example.org/any/path?q=1'],
      ['stridestake://auth/callback', 'stridestake://auth/callback'],
      ['stridestake://auth/callback?next=%2Fgoals', 'stridestake://auth/callback?next=%2Fgoals'],
    ];
    for (const [requested, answer] of kept) expect(safeRedirect(requested, policy), requested).toBe(answer);
  });

  it('keeps any path and query under an allowed target', () => {
    const segment = fc.stringMatching(/^[A-Za-z0-9._~-]{1,12}$/).filter((s) => s !== '.' && s !== '..');
    const query = fc.dictionary(fc.stringMatching(/^[a-z]{1,8}$/), fc.string({ maxLength: 12 }), { maxKeys: 3 });
    fc.assert(
      fc.property(
        fc.constantFrom(APP_URL, PUBLIC_URL, 'https://partner.example.org', 'https://app.example.com/welcome'),
        fc.array(segment, { maxLength: 4 }),
        query,
        (root, segments, params) => {
          const url = new URL(`${root}${segments.map((s) => `/${s}`).join('')}`);
          for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
          expect(safeRedirect(url.href, policy)).toBe(url.href);
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('by default allows the native shell callback exactly, not the whole scheme', () => {
    const defaults = redirectPolicy(loadConfig({ NODE_ENV: 'test', APP_URL: 'https://stridestake.app' }));
    expect(safeRedirect('stridestake://auth/callback', defaults)).toBe('stridestake://auth/callback');
    expect(safeRedirect('stridestake://evil.example/callback', defaults)).toBe('https://stridestake.app');
    expect(safeRedirect('stridestake://auth/callback-evil', defaults)).toBe('https://stridestake.app');
    expect(safeRedirect('https://stridestake.app.evil.net/', defaults)).toBe('https://stridestake.app');
  });
});
