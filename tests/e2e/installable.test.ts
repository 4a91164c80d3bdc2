import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { inject } from 'vitest';

/** Width and height of a PNG (its IHDR chunk). */
function pngSize(file: string): { width: number; height: number } {
  const bytes = readFileSync(file);
  expect(bytes.subarray(1, 4).toString('latin1')).toBe('PNG');
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

/**
 * The production build (the one every journey uses) is an installable web app: a manifest that browsers accept for
 * installation (name, start URL, standalone display, a 192 and a 512 px icon, a maskable one), the icons and the
 * service worker it names, and a page that links them.
 */
describe('the web build is installable', () => {
  const dir = inject('e2eWebBuild');

  it('has a manifest with name, start URL, standalone display, theme and icons of the sizes it says', () => {
    const manifest = JSON.parse(readFileSync(join(dir, 'manifest.webmanifest'), 'utf8'));
    expect(manifest).toMatchObject({
      name: 'StrideStake',
      short_name: 'StrideStake',
      start_url: '/app',
      scope: '/',
      display: 'standalone',
      theme_color: '#0f766e',
    });
    const icons = manifest.icons as { src: string; sizes: string; type: string; purpose: string }[];
    for (const size of [192, 512])
      expect(icons.some((i) => i.sizes === `${size}x${size}` && i.purpose === 'any')).toBe(true);
    expect(icons.some((i) => i.purpose === 'maskable')).toBe(true);
    for (const icon of icons.filter((i) => i.type === 'image/png')) {
      const [width, height] = icon.sizes.split('x').map(Number);
      expect(pngSize(join(dir, icon.src)), icon.src).toEqual({ width, height });
    }
  });

  it('links the manifest, the icons and the link-preview image from the page', () => {
    const html = readFileSync(join(dir, 'index.html'), 'utf8');
    expect(html).toContain('<link rel="manifest" href="/manifest.webmanifest">');
    expect(html).toContain('rel="icon" href="/favicon.svg"');
    expect(pngSize(join(dir, 'icons/apple-touch-icon.png'))).toEqual({ width: 180, height: 180 });
    expect(html).toContain('property="og:image" content="/og-image.png"');
    expect(pngSize(join(dir, 'og-image.png'))).toEqual({ width: 1200, height: 630 });
  });

  it('has one service worker that precaches the page and the scripts and imports the push handlers', () => {
    const worker = readFileSync(join(dir, 'sw.js'), 'utf8');
    expect(worker).toContain('/push-sw.js');
    expect(worker).toContain('index.html');
    expect(worker).toMatch(/assets\/index-[\w-]+\.js/);
    // Precompressed beside it, as every text file of the build.
    expect(readFileSync(join(dir, 'sw.js.br')).length).toBeGreaterThan(0);
  });
});
