import { describe, expect, it } from 'vitest';
import { type AppPluginLike, capacitorDeepLinks } from './deep-links.ts';

describe('capacitorDeepLinks', () => {
  it('forwards appUrlOpen URLs and removes its listener on unsubscribe', async () => {
    let handler: ((event: { url: string }) => void) | null = null;
    let removed = false;
    const plugin = {
      addListener: (_event: string, fn: (event: { url: string }) => void) => {
        handler = fn;
        return Promise.resolve({
          remove: async () => {
            removed = true;
          },
        });
      },
    } as unknown as AppPluginLike;
    const urls: string[] = [];
    const stop = capacitorDeepLinks(plugin)((url) => urls.push(url));
    handler!({ url: 'stridestake://auth/callback?code=1' });
    expect(urls).toEqual(['stridestake://auth/callback?code=1']);
    stop();
    await new Promise((r) => setTimeout(r, 0));
    expect(removed).toBe(true);
  });
});
