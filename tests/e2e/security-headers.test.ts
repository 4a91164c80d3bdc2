import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type E2eStack, startE2eStack } from './support/e2e-stack.ts';
import { PASSWORD, phonePage, uniqueEmail } from './support/journey.ts';

/**
 * The built web app served with the production header policy (app-server/http/security-headers.ts, as main.ts and
 * nginx serve it): the app must work under its own Content-Security-Policy, with not one violation from the landing
 * page through sign-in and every tab, and no other site may frame it.
 */
type Violation = { directive: string; blocked: string; sample: string; source: string };

/** The page's globals these scripts touch (they run in the browser; the tests' types have no DOM). */
type CspEvent = {
  violatedDirective: string;
  blockedURI: string;
  sample: string;
  sourceFile: string;
  lineNumber: number;
};
type PageGlobals = {
  cspViolations?: Violation[];
  document: {
    addEventListener(type: string, listener: (e: CspEvent) => void): void;
    querySelector(selector: string): unknown;
  };
};

/** Every CSP violation the page reports (the DOM event) and every refusal Chromium logs (workers, frames too). */
function watchViolations(page: Page): { events: () => Promise<Violation[]>; console: string[] } {
  const console: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy|Refused to/i.test(message.text())) console.push(message.text());
  });
  return {
    console,
    events: () => page.evaluate(() => (globalThis as unknown as PageGlobals).cspViolations ?? []),
  };
}

describe('the web app under its Content-Security-Policy', () => {
  let stack: E2eStack;

  beforeAll(async () => {
    stack = await startE2eStack({ securityHeaders: true });
  }, 120_000);
  afterAll(() => stack?.close());

  it('sends the policy on the pages and the API', async () => {
    for (const path of ['/', '/app', '/login']) {
      const res = await fetch(`${stack.webUrl}${path}`);
      const csp = res.headers.get('content-security-policy') ?? '';
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain("object-src 'none'");
      expect(csp).toContain(`connect-src 'self' ${stack.apiUrl}`);
      expect(csp).not.toContain('stripe');
      expect(res.headers.get('x-frame-options')).toBe('DENY');
      expect(res.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
      expect(res.headers.get('strict-transport-security')).toBeNull();
    }
    const api = await fetch(`${stack.apiUrl}/health`);
    expect(api.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('raises no CSP violation from the landing page, through sign-in, across every tab', async () => {
    // A confirmed account, made through the auth API; the sign-in itself goes through the page.
    const email = uniqueEmail('Csp Runner');
    const post = (path: string, body: unknown) =>
      fetch(`${stack.apiUrl}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const signup = await post('/auth/v1/signup', {
      email,
      password: PASSWORD,
      data: { display_name: 'Csp Runner', timezone: 'Europe/Paris' },
    });
    expect(signup.status).toBe(200);
    const mailbox = (await (await fetch(`${stack.apiUrl}/dev/mail?to=${encodeURIComponent(email)}`)).json()) as {
      mail: { text: string }[];
    };
    const code = /code: (\d{6})/.exec(mailbox.mail[0]?.text ?? '')?.[1] ?? '';
    expect((await post('/auth/v1/verify', { type: 'signup', email, token: code })).status).toBe(200);

    const { context, page } = await phonePage(stack.browser);
    await context.addInitScript(() => {
      const page = globalThis as unknown as PageGlobals;
      page.cspViolations = [];
      page.document.addEventListener('securitypolicyviolation', (e) => {
        page.cspViolations?.push({
          directive: e.violatedDirective,
          blocked: e.blockedURI,
          sample: e.sample,
          source: `${e.sourceFile}:${e.lineNumber}`,
        });
      });
    });
    const violations = watchViolations(page);
    const seen: Violation[] = [];
    const collect = async () => {
      seen.push(...(await violations.events()));
    };

    await page.goto(`${stack.webUrl}/`);
    await page.getByRole('link', { name: 'Sign In' }).first().click();
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.waitForURL(`${stack.webUrl}/app`);
    await page.getByRole('heading', { name: 'Csp Runner' }).waitFor();
    // Client-side navigation keeps the document (and its collected violations); a reload would start a new list.
    for (const tab of ['Run', 'Goals', 'Groups', 'Profile', 'Home']) {
      await page.getByRole('link', { name: tab, exact: true }).first().click();
      await page.waitForLoadState('networkidle');
    }
    await collect();
    // A fresh load of a client route: app.html with its inline first-requests script.
    await page.goto(`${stack.webUrl}/goals`);
    await page.waitForLoadState('networkidle');
    await collect();
    await context.close();

    expect(seen).toEqual([]);
    expect(violations.console).toEqual([]);
  }, 90_000);

  it('cannot be framed by another site', async () => {
    const { context, page } = await phonePage(stack.browser, { tourSeen: false });
    const refusals: string[] = [];
    page.on('console', (message) => {
      if (/frame-ancestors|X-Frame-Options/i.test(message.text())) refusals.push(message.text());
    });
    // A page of another origin (about:blank here) framing the app.
    await page.setContent(`<iframe id="victim" src="${stack.webUrl}/app" width="300" height="300"></iframe>`);
    await page.waitForTimeout(1_500);
    const frame = page.frames().find((f) => f !== page.mainFrame());
    // Blocked: the frame never holds the app's document (Chromium shows its error page instead).
    const framedApp = frame
      ? await frame
          .evaluate(() => (globalThis as unknown as PageGlobals).document.querySelector('#root') !== null)
          .catch(() => false)
      : false;
    expect(framedApp).toBe(false);
    expect(refusals.join('\n')).toMatch(/frame-ancestors 'none'|X-Frame-Options/);
    await context.close();
  }, 60_000);
});
