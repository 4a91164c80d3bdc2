import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { chromium } from 'playwright-core';

/**
 * Draws the app's PNG images from the SVG sources in web/public/icons with Debian's chromium, once, into
 * web/public (they are committed; run again after changing a source):
 *   node_modules/.bin/node web/scripts/make-images.ts
 * icon-192/512 (the manifest's icons, transparent corners), maskable-512 (full bleed, the mark inside the safe
 * circle), apple-touch-icon (180, opaque: iOS fills transparency with black), og-image (1200×630 link preview).
 */
const PUBLIC = resolve(import.meta.dirname, '../public');
const svg = (name: string) =>
  `data:image/svg+xml;base64,${readFileSync(resolve(PUBLIC, 'icons', name)).toString('base64')}`;

const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox'] });
try {
  const page = await browser.newPage();
  const draw = async (html: string, width: number, height: number, out: string, transparent: boolean) => {
    await page.setViewportSize({ width, height });
    await page.setContent(`<!doctype html><html><body style="margin:0">${html}</body></html>`);
    await page.waitForLoadState('load');
    writeFileSync(resolve(PUBLIC, out), await page.screenshot({ omitBackground: transparent, type: 'png' }));
  };
  const image = (name: string, size: number) => `<img src="${svg(name)}" width="${size}" height="${size}" alt="">`;
  await draw(image('icon.svg', 192), 192, 192, 'icons/icon-192.png', true);
  await draw(image('icon.svg', 512), 512, 512, 'icons/icon-512.png', true);
  await draw(image('maskable.svg', 512), 512, 512, 'icons/maskable-512.png', false);
  await draw(image('maskable.svg', 180), 180, 180, 'icons/apple-touch-icon.png', false);
  await draw(
    `<div style="width:1200px;height:630px;box-sizing:border-box;padding:96px;background:#0f766e;color:#fff;
      font-family:system-ui,'DejaVu Sans',sans-serif;display:flex;flex-direction:column;justify-content:center;gap:28px">
      <div style="display:flex;align-items:center;gap:28px">${image('icon.svg', 120)}
        <span style="font-size:72px;font-weight:800;letter-spacing:-1px">StrideStake</span></div>
      <div style="font-size:52px;font-weight:700;line-height:1.15">Run your weekly goal.<br>Put money on it.</div>
      <div style="font-size:30px;opacity:.85">Weekly running goals, stakes for charity, friends cheering you on.</div>
    </div>`,
    1200,
    630,
    'og-image.png',
    false,
  );
} finally {
  await browser.close();
}
