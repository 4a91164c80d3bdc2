import { afterEach, describe, expect, it, vi } from 'vitest';
import { FIRST_REQUESTS } from '../lib/first-requests.ts';
import { STORAGE_KEYS, storage } from '../lib/storage.ts';
import { prefetchFirstScreen } from './first-screen.ts';

// The screen's chunk is not this test's business (and needs a browser).
vi.mock('./router.tsx', () => ({ preloadScreen: () => {} }));

describe('prefetchFirstScreen', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('asks the API for exactly what app.html starts for the dashboard, so the page’s answers are all taken', async () => {
    vi.stubGlobal('window', { location: { pathname: '/app', search: '', hash: '' } });
    storage.setItem(
      STORAGE_KEYS.session,
      JSON.stringify({
        access_token: 'token',
        refresh_token: 'refresh',
        expires_at: Date.now() / 1000 + 3600,
        user: { id: 'user-1' },
      }),
    );
    const asked: string[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) => {
        asked.push(new URL(url).pathname);
        return new Response(JSON.stringify({ data: null, user: { id: 'user-1' } }), { status: 200 });
      }),
    );
    await prefetchFirstScreen('/app');
    expect(asked.sort()).toEqual([...(FIRST_REQUESTS['/app'] ?? [])].sort());
  });

  it('asks for nothing on other screens', async () => {
    const fetch = vi.fn();
    vi.stubGlobal('fetch', fetch);
    vi.stubGlobal('window', { location: { pathname: '/goals', search: '', hash: '' } });
    await prefetchFirstScreen('/goals');
    expect(fetch).not.toHaveBeenCalled();
  });
});
