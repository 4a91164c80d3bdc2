import type { BrowserContextOptions } from 'playwright-core';
import type { E2eStack } from '../../e2e/support/e2e-stack.ts';
import { authClient } from '../../api/auth-helpers.ts';
import { PASSWORD, PHONE, signedInUser } from '../../e2e/support/journey.ts';
import { type FirstLoad, measureFirstLoad } from './first-load.ts';

/** Chrome on an Android phone at 390×844: the visitor the budgets are for (the app-store prompt included). */
export const PHONE_VISITOR: BrowserContextOptions = {
  ...PHONE,
  isMobile: true,
  hasTouch: true,
  userAgent:
    'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Mobile Safari/537.36',
};

export interface LoadOptions {
  readonly cpuThrottling?: number;
}

/** A first visit to the landing page `/` (signed out, cold cache), until its hero shows. */
export async function landingFirstLoad(stack: E2eStack, options: LoadOptions = {}): Promise<FirstLoad> {
  const context = await stack.browser.newContext(PHONE_VISITOR);
  try {
    return await measureFirstLoad(context, `${stack.webUrl}/`, {
      ...options,
      ready: (page) => page.getByRole('heading', { name: 'Run your weekly goal. Put money on it.' }).waitFor(),
    });
  } finally {
    await context.close();
  }
}

let runners = 0;

/**
 * A signed-in runner with a goal opening `/app` on a cold cache (the session is stored, as after a sign-in on an
 * earlier visit), until the dashboard shows the name and the week's goal.
 */
export async function appFirstLoad(stack: E2eStack, options: LoadOptions = {}): Promise<FirstLoad> {
  runners += 1;
  const name = `Bench Runner ${runners}`;
  const { context, page, email } = await signedInUser(stack, name, { context: PHONE_VISITOR });
  try {
    await page.close();
    const token = await authClient(stack.runtime)('POST', '/auth/v1/token?grant_type=password', {
      body: { email, password: PASSWORD },
    });
    const goal = await stack.runtime.request('POST', '/goals', {
      token: token.body.access_token,
      body: { type: 'distance', target_value: 20 },
    });
    if (goal.status !== 201) throw new Error(`goal not created: ${goal.text}`);
    return await measureFirstLoad(context, `${stack.webUrl}/app`, {
      ...options,
      ready: async (p) => {
        await p.getByRole('heading', { name }).waitFor();
        await p.getByRole('region', { name: "This week's goal" }).getByText('Run 20 km').waitFor();
      },
    });
  } finally {
    await context.close();
  }
}
