import type { BrowserContext, Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authClient } from '../api/auth-helpers.ts';
import { type E2eStack, startE2eStack } from './support/e2e-stack.ts';
import { PASSWORD, signedInUser, signInWithPassword } from './support/journey.ts';

/** The API reads (GET, by path) a page sent, in order. */
function apiReads(page: Page, apiUrl: string): string[] {
  const reads: string[] = [];
  page.on('request', (request: Request) => {
    if (request.method() === 'GET' && request.url().startsWith(apiUrl)) reads.push(new URL(request.url()).pathname);
  });
  return reads;
}

async function withGoal(stack: E2eStack, email: string, km: number): Promise<void> {
  const token = await authClient(stack.runtime)('POST', '/auth/v1/token?grant_type=password', {
    body: { email, password: PASSWORD },
  });
  const goal = await stack.runtime.request('POST', '/goals', {
    token: token.body.access_token,
    body: { type: 'distance', target_value: km },
  });
  if (goal.status !== 201) throw new Error(`goal not created: ${goal.text}`);
}

/**
 * app.html asks for the dashboard's first answers itself, before the app's scripts have loaded (web/src/lib/
 * first-requests.ts), and the dashboard paints them in its first frame. Those answers are the signed-in runner's only:
 * the app takes them for the token they were sent with, once, and another account on the same device sees its own.
 */
describe("the dashboard's first screen", () => {
  let stack: E2eStack;
  let context: BrowserContext;
  let page: Page;
  let email: string;

  beforeAll(async () => {
    stack = await startE2eStack();
    ({ context, page, email } = await signedInUser(stack, 'Early Runner'));
    await withGoal(stack, email, 15);
  }, 120_000);

  afterAll(async () => {
    await context?.close();
    await stack?.close();
  });

  it('shows the runner and the week’s goal from the reads the page started, each sent once', async () => {
    const reads = apiReads(page, stack.apiUrl);
    await page.goto(`${stack.webUrl}/app`);
    await page.getByRole('heading', { name: 'Early Runner' }).waitFor();
    await page.getByRole('region', { name: "This week's goal" }).getByText('Run 15 km').waitFor();
    expect(await page.evaluate("'stridestakeFirstRequests' in window")).toBe(true);
    expect(reads.filter((path) => path === '/auth/me')).toHaveLength(1);
    expect(reads.filter((path) => path === '/goals/current')).toHaveLength(1);
  });

  it('shows another runner who signs in on the same device their own dashboard, also after a reload', async () => {
    const other = await signedInUser(stack, 'Second Runner');
    await other.context.close();
    await withGoal(stack, other.email, 30);

    await page.getByRole('link', { name: 'Profile' }).click();
    await page.getByRole('button', { name: 'Sign Out' }).click();
    await page.waitForURL(`${stack.webUrl}/`);
    await signInWithPassword(page, stack.webUrl, other.email);
    await page.getByRole('heading', { name: 'Second Runner' }).waitFor();
    await page.getByRole('region', { name: "This week's goal" }).getByText('Run 30 km').waitFor();
    expect(await page.getByText('Early Runner').count()).toBe(0);

    await page.reload();
    await page.getByRole('heading', { name: 'Second Runner' }).waitFor();
    await page.getByRole('region', { name: "This week's goal" }).getByText('Run 30 km').waitFor();
    expect(await page.getByText('Early Runner').count()).toBe(0);
    expect(await page.getByText('Run 15 km').count()).toBe(0);
  });
});
