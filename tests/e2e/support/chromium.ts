import { type Browser, chromium } from 'playwright-core';

/** Debian's chromium, as FACTS.md "Toolchain" describes (playwright cannot download browsers here). */
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

/** Launches Debian's chromium headless, for the browser tests, the web bench and the screenshot scripts. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
}
