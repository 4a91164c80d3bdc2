import { STORAGE_KEYS, storage } from './storage.ts';

/*
 * Where a sign-in lands. A signed-out visitor who opens a signed-in page (a group mate following a vouch link) is sent
 * to the landing page; once they sign in they should be on the page they opened, not the dashboard. The page is
 * remembered on this device for a while and read back once.
 *
 * A path that will be navigated to is an address from outside (anyone can send a link), so it is parsed and compared
 * exactly: the same origin, and a pathname matching one of the signed-in pages' patterns from end to end. A prefix
 * check would let `/app/../..`, `//evil.example` or `/\evil.example` through; these fail every pattern.
 */

/** The signed-in pages (router.tsx's ProtectedLayout routes), each as a whole-pathname pattern. */
export const SIGNED_IN_PAGES: readonly RegExp[] = [
  /^\/app$/,
  /^\/run$/,
  /^\/run-history$/,
  /^\/runs\/[A-Za-z0-9_-]{1,100}$/,
  /^\/goals$/,
  /^\/goals\/[A-Za-z0-9_-]{1,100}\/stats$/,
  /^\/groups$/,
  /^\/groups\/[A-Za-z0-9_-]{1,100}$/,
  /^\/profile$/,
  /^\/connected-apps$/,
  /^\/xp-guide$/,
  /^\/stakes\/[A-Za-z0-9_-]{1,100}\/receipt$/,
  /^\/vouch\/[A-Za-z0-9_-]{1,100}$/,
];

/** The query a remembered page may keep (the profile's tab): short, plain key=value pairs. */
const PLAIN_QUERY = /^(\?[A-Za-z0-9_-]{1,30}=[A-Za-z0-9_,-]{0,100}(&[A-Za-z0-9_-]{1,30}=[A-Za-z0-9_,-]{0,100}){0,4})?$/;

/** A remembered page older than this is not where the visitor means to go any more. */
export const RETURN_PATH_TTL_MS = 60 * 60 * 1000;

/** The in-app path (pathname and query) of `raw` when it is one of the signed-in pages on `origin`, else null. */
export function signedInPagePath(raw: string, origin: string): string | null {
  if (!raw.startsWith('/') || raw.startsWith('//') || raw.includes('\\')) return null;
  let url: URL;
  try {
    url = new URL(raw, origin);
  } catch {
    return null;
  }
  if (url.origin !== origin || url.hash !== '' || url.username !== '' || url.password !== '') return null;
  // The parsed URL must say exactly what was written: no dot segments or escapes resolved along the way.
  if (`${url.pathname}${url.search}` !== raw) return null;
  if (!SIGNED_IN_PAGES.some((page) => page.test(url.pathname)) || !PLAIN_QUERY.test(url.search)) return null;
  return raw;
}

/**
 * An in-app path from outside that the app navigates to itself (a tapped notification's `url`): the same exact check,
 * against a fixed base, since only the path is used.
 */
export function inAppPath(raw: string | undefined): string | null {
  return raw === undefined ? null : signedInPagePath(raw, 'https://app.invalid');
}

/*
 * Only a visitor who came signed out is returned: someone signing out (or signed out elsewhere) on a shared browser
 * must not hand the page they were on to whoever signs in next. So a session seen during this page load, or a page
 * reached by navigating inside the app, remembers nothing.
 */
let sessionSeen = false;

/** Called while a session is in use: from now on this page load remembers no page for the next sign-in. */
export function noteSessionSeen(): void {
  sessionSeen = true;
}

/**
 * Remembers the signed-in page a signed-out visitor opened (nothing when it is not one). `openedDirectly`: the page is
 * the one the browser loaded (a link followed), not one reached inside the app.
 */
export function rememberReturnPath(raw: string, origin: string, now: number, openedDirectly = true): void {
  if (sessionSeen || !openedDirectly) return;
  const path = signedInPagePath(raw, origin);
  if (path === null || path === '/app') return;
  storage.setItem(STORAGE_KEYS.returnAfterSignIn, JSON.stringify({ path, savedAt: now }));
}

/** Where a sign-in lands: the page remembered (once, and only if still fresh and valid), else the dashboard. */
export function takeReturnPath(origin: string, now: number): string {
  const raw = storage.getItem(STORAGE_KEYS.returnAfterSignIn);
  storage.removeItem(STORAGE_KEYS.returnAfterSignIn);
  if (raw === null) return '/app';
  try {
    const { path, savedAt } = JSON.parse(raw) as { path?: unknown; savedAt?: unknown };
    if (typeof path !== 'string' || typeof savedAt !== 'number') return '/app';
    if (now < savedAt || now - savedAt > RETURN_PATH_TTL_MS) return '/app';
    return signedInPagePath(path, origin) ?? '/app';
  } catch {
    return '/app';
  }
}
