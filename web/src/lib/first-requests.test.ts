import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FIRST_REQUESTS, startFirstRequests, takeFirstResponse } from './first-requests.ts';
import { STORAGE_KEYS, storage } from './storage.ts';

const NOW = Date.parse('2026-05-04T08:00:00Z');

function storeSession(token: string, expiresInSeconds: number): void {
  storage.setItem(
    STORAGE_KEYS.session,
    JSON.stringify({
      access_token: token,
      refresh_token: 'refresh',
      expires_at: NOW / 1000 + expiresInSeconds,
      user: { id: 'user-1' },
    }),
  );
}

/** The page at `path` (a search or hash may follow), and every fetch it sends, answered 200. */
function openPage(path: string) {
  const url = new URL(path, 'https://app.example');
  const page = { location: { pathname: url.pathname, search: url.search, hash: url.hash } } as Window &
    typeof globalThis;
  vi.stubGlobal('window', page);
  const sent: { url: string; authorization: string | undefined }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (target: string, init?: RequestInit) => {
      sent.push({ url: target, authorization: (init?.headers as Record<string, string> | undefined)?.authorization });
      return new Response(JSON.stringify({ path: new URL(target).pathname }), { status: 200 });
    }),
  );
  return { page, sent };
}

describe('the first requests app.html starts', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: NOW, toFake: ['Date'] });
    storage.removeItem(STORAGE_KEYS.demoMode);
    storeSession('token-1', 3600);
  });

  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it("sends the dashboard's reads with the stored token and hands each answer out once, for that token only", async () => {
    const { sent } = openPage('/app');
    startFirstRequests();
    expect(sent.map((s) => new URL(s.url).pathname)).toEqual(FIRST_REQUESTS['/app']);
    expect(sent.every((s) => s.authorization === 'Bearer token-1')).toBe(true);

    expect(takeFirstResponse('/auth/me', 'token-2')).toBeUndefined();
    const answer = await takeFirstResponse('/auth/me', 'token-1');
    expect(await answer?.json()).toEqual({ path: '/auth/me' });
    expect(takeFirstResponse('/auth/me', 'token-1')).toBeUndefined();
    expect(takeFirstResponse('/me/badges', 'token-1')).toBeUndefined();
  });

  it('hands out nothing older than the query cache keeps fresh', () => {
    openPage('/app');
    startFirstRequests();
    vi.setSystemTime(NOW + 31_000);
    expect(takeFirstResponse('/auth/me', 'token-1')).toBeUndefined();
  });

  it('sends nothing on another page, without a session ready to use, on a sign-in link or in demo mode', () => {
    const cases: [string, () => void][] = [
      ['/goals', () => {}],
      ['/app', () => storage.removeItem(STORAGE_KEYS.session)],
      // The auth client refreshes a token this close to its expiry before using it.
      ['/app', () => storeSession('token-1', 60)],
      ['/app#access_token=new&refresh_token=r', () => {}],
      ['/app?code=abc', () => {}],
      ['/app', () => storage.setItem(STORAGE_KEYS.demoMode, 'true')],
    ];
    for (const [path, arrange] of cases) {
      storeSession('token-1', 3600);
      storage.removeItem(STORAGE_KEYS.demoMode);
      arrange();
      const { page, sent } = openPage(path);
      startFirstRequests();
      expect(sent, path).toEqual([]);
      expect(page.stridestakeFirstRequests).toBeUndefined();
    }
  });
});
