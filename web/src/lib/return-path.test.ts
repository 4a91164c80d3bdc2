import fc from 'fast-check';
// The router's source, as text (Vite's ?raw): the signed-in pages it declares.
import routerSource from '../app/router.tsx?raw';
import { describe, expect, it } from 'vitest';
import {
  noteSessionSeen,
  RETURN_PATH_TTL_MS,
  rememberReturnPath,
  signedInPagePath,
  takeReturnPath,
} from './return-path.ts';

const ORIGIN = 'https://app.stridestake.test';

/** The paths of the routes under ProtectedLayout in router.tsx. */
function protectedRoutes(): string[] {
  const block = routerSource.slice(routerSource.indexOf('<Route element={<ProtectedLayout />}>'));
  const inside = block.slice(0, block.indexOf('</Route>'));
  return [...inside.matchAll(/path="([^"]+)"/g)].map((m) => m[1]!);
}

describe('the page a sign-in returns to', () => {
  it('is any signed-in page of the router, with its ids filled in: a new page is added to both', () => {
    const routes = protectedRoutes();
    expect(routes).toContain('/vouch/:stakeId');
    for (const route of routes) {
      const path = route.replace(/:[A-Za-z]+/g, 'a1B2-c3_d4');
      expect(signedInPagePath(path, ORIGIN), route).toBe(path);
    }
  });

  it('keeps the profile’s tab', () => {
    expect(signedInPagePath('/profile?tab=stakes', ORIGIN)).toBe('/profile?tab=stakes');
  });

  it('is never another site, a page outside the app, or a path the browser would rewrite', () => {
    for (const hostile of [
      '//evil.example/vouch/abc',
      '/\\evil.example',
      'https://evil.example/app',
      `${ORIGIN}/app`,
      'javascript:alert(1)',
      '/vouch/abc/../../login',
      '/vouch/%2e%2e',
      '/vouch/abc#x',
      '/vouch/abc?next=https://evil.example',
      '/login',
      '/app/',
      '/vouchers/abc',
      ' /app',
      '',
    ]) {
      expect(signedInPagePath(hostile, ORIGIN), hostile).toBeNull();
    }
  });

  it('whatever is written, an accepted path stays on the origin and is exactly what was written', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.webUrl(), fc.webPath(), fc.constantFrom('/vouch/', '/app', '//')), (raw) => {
        const path = signedInPagePath(raw, ORIGIN);
        if (path === null) return;
        const url = new URL(path, ORIGIN);
        expect(url.origin).toBe(ORIGIN);
        expect(`${url.pathname}${url.search}`).toBe(raw);
      }),
      { numRuns: 2000 },
    );
  });

  it('is read back once, within the hour, else the dashboard', () => {
    rememberReturnPath('/vouch/stake-1', ORIGIN, 1_000);
    expect(takeReturnPath(ORIGIN, 2_000)).toBe('/vouch/stake-1');
    expect(takeReturnPath(ORIGIN, 3_000)).toBe('/app');
    rememberReturnPath('/vouch/stake-2', ORIGIN, 1_000);
    expect(takeReturnPath(ORIGIN, 1_000 + RETURN_PATH_TTL_MS + 1)).toBe('/app');
    rememberReturnPath('//evil.example', ORIGIN, 1_000);
    expect(takeReturnPath(ORIGIN, 1_001)).toBe('/app');
  });

  it('is not remembered for a page reached inside the app, nor once a session was in use (a shared browser)', () => {
    rememberReturnPath('/profile', ORIGIN, 1_000, false);
    expect(takeReturnPath(ORIGIN, 1_001)).toBe('/app');
    // Runner A signs out on /profile: runner B, signing in next, starts on the dashboard, not on A's page.
    noteSessionSeen();
    rememberReturnPath('/profile', ORIGIN, 1_000);
    expect(takeReturnPath(ORIGIN, 1_001)).toBe('/app');
  });
});
