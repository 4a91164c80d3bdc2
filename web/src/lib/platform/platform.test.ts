import { describe, expect, it, vi } from 'vitest';

/** A fresh copy of the platform modules, so the memoised choice is made again. */
async function load() {
  vi.resetModules();
  const index = await import('./index.ts');
  const storage = await import('../storage.ts');
  return { ...index, ...storage };
}

describe('platform', () => {
  it('is the web implementations when no shell provided one', async () => {
    const { platform } = await load();
    const p = platform();
    expect(p.name).toBe('web');
    expect(await p.push.checkPermission()).toBe('unsupported');
    await expect(p.push.register()).rejects.toThrow(/not available on the web/);
    expect(await p.openStorage()).toBeNull();
    expect(p.shell).toMatchObject({ hasLanding: true, signedOutRoute: '/', permissionsOnboarding: false });
  });

  it('is the platform a shell provided before the app loaded, chosen once', async () => {
    const shell = { ...(await load()).platform(), name: 'ios' as const };
    const { platform, providePlatform } = await load();
    providePlatform(shell);
    expect(platform()).toBe(shell);
    expect(platform()).toBe(shell);
    // Too late once the app has chosen: a shell must provide its platform before the app loads.
    expect(() => providePlatform({ ...shell, name: 'android' })).toThrow(/chosen already/);
  });

  it('leaves the browser storage in place on the web', async () => {
    const { installPlatform, storage } = await load();
    await installPlatform();
    expect(storage.getItem('stridestake.auth')).toBeNull();
    storage.setItem('stridestake.distance-unit', 'km');
    expect(storage.getItem('stridestake.distance-unit')).toBe('km');
  });
});
