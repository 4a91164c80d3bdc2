import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseTargets } from '../support/test-runtime.ts';
import { type E2eStack, startE2eStack } from './support/e2e-stack.ts';
import { apiFromPage } from './support/journey.ts';
import { createStakedRunGoal, newPhone, openApp, runWorkers, screenshot, signUp } from './support/money-journey.ts';

/*
 * Issue 25.2's vouch, in Debian's chromium at 390×844 (New York time). Ana and her group mate Ben share a group; Ana
 * stakes $10 on two runs for the week of Monday Nov 16 and runs none that the app saw. On Sunday she appeals ("a group
 * member saw me"): nothing the rules can weigh, so a person will decide. Her card offers a link for a group mate;
 * Ben opens it and vouches, and Ana's card then counts the vouch and shows it on the timeline. Cleo, in none of Ana's
 * groups, opens the same link signed out: it leads to the landing page, and once she has signed up she is back on the
 * vouch page, where she is told the appeal is not hers to vouch for.
 */
const WED_NOV_18 = '2026-11-18T17:00:00Z'; // 12:00 PM in New York: the goal set up, the hold placed
const SUN_NOV_22_EVENING = '2026-11-22T22:00:00Z'; // 5:00 PM: the week's last day, the appeal is open

describe.each(databaseTargets())('a group mate vouches for an appealed week on %s', (target) => {
  let stack: E2eStack;
  const phones: { context: BrowserContext; page: Page }[] = [];
  let ana: Page;
  let ben: Page;
  let cleo: Page;
  let link = '';

  const moveTime = async (iso: string) => {
    stack.runtime.clock.set(iso);
    for (const phone of phones) await phone.context.clock.setSystemTime(new Date(iso));
  };
  const row = (page: Page) =>
    page.getByRole('list', { name: 'Stakes' }).locator('li.stake-row', { hasText: 'Week of Nov 16' });
  const timeline = (page: Page) => row(page).getByRole('list', { name: 'Hold timeline' });
  const vouchOn = async (page: Page) => {
    await openApp(page, stack, new URL(link).pathname);
    await page
      .getByText('A member of your group appealed a missed week and asks you to confirm they ran it.')
      .waitFor();
    await page.getByText('Vouch only if you saw them run or know they did.').waitFor();
    await page.getByRole('button', { name: 'Vouch', exact: true }).click();
  };

  beforeAll(async () => {
    stack = await startE2eStack({ target, now: WED_NOV_18 });
    for (let i = 0; i < 3; i++) phones.push(await newPhone(stack));
    [ana, ben, cleo] = phones.map((p) => p.page) as [Page, Page, Page];
    // Headless chromium has no share sheet: the link is copied, which needs the clipboard's permission.
    await phones[0]!.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: stack.webUrl });
  }, 180_000);
  afterAll(async () => {
    for (const phone of phones) await phone.context.close();
    await stack?.close();
  });

  it('Ana and Ben share a group; Ana stakes $10 on two runs this week', async () => {
    await signUp(ana, stack, 'Ana Lima', `ana-vouch-${target}-${process.pid}@example.com`);
    await signUp(ben, stack, 'Ben Adeyemi', `ben-vouch-${target}-${process.pid}@example.com`);
    const created = await apiFromPage(ana, stack.apiUrl, 'POST', '/groups', { name: 'Park Runners' });
    expect(created.status).toBe(201);
    const { invite_code } = (created.json as { data: { invite_code: string } }).data;
    const joined = await apiFromPage(ben, stack.apiUrl, 'POST', '/groups/join', { invite_code });
    expect(joined.status).toBeLessThan(300);
    await createStakedRunGoal(ana, stack, 2);
    await runWorkers(stack);
  });

  it('on Sunday Ana appeals the week she missed; her card offers a link for a group mate to vouch', async () => {
    await moveTime(SUN_NOV_22_EVENING);
    await runWorkers(stack);
    await openApp(ana, stack, '/profile?tab=stakes');
    // Before the appeal there is nothing to vouch for.
    await row(ana).getByRole('button', { name: 'Appeal', exact: true }).waitFor();
    expect(await row(ana).getByRole('button', { name: 'Ask a group mate to vouch' }).count()).toBe(0);
    await row(ana).getByRole('button', { name: 'Appeal', exact: true }).click();
    const dialog = ana.getByRole('dialog', { name: 'Appeal This Stake' });
    await dialog.getByRole('radio', { name: 'A group member saw me' }).check();
    await dialog.getByRole('button', { name: 'Send Appeal' }).click();
    await dialog.waitFor({ state: 'detached' });
    await runWorkers(stack);
    await row(ana).getByText('Appeal pending', { exact: true }).waitFor();

    await row(ana).getByRole('button', { name: 'Ask a group mate to vouch' }).click();
    await row(ana).getByRole('status').getByText('Link copied').waitFor();
    await row(ana).getByText('Only members of your groups can vouch.').waitFor();
    link = await row(ana).getByRole('textbox', { name: 'Vouch link' }).inputValue();
    expect(link).toMatch(new RegExp(`^${stack.webUrl}/vouch/[^/]+$`));
    // The test project has no DOM types: the page's own script reads the clipboard back.
    expect(await ana.evaluate('navigator.clipboard.readText()')).toBe(link);
    await screenshot(ana, `${target}-25-ask-for-vouch`, row(ana));
  });

  it('signed out, the link leads to the landing page, and signing up there lands on the vouch page', async () => {
    await cleo.goto(link);
    await cleo.waitForURL(`${stack.webUrl}/`);
    await signUp(
      cleo,
      stack,
      'Cleo Park',
      `cleo-stranger-${target}-${process.pid}@example.com`,
      new URL(link).pathname,
    );
    await cleo.getByRole('heading', { name: 'Vouch for a run' }).waitFor();
  });

  it('Ben opens the link and vouches; once, not twice', async () => {
    await vouchOn(ben);
    await ben.getByRole('status').getByText('Thanks: your vouch is on their appeal.').waitFor();
    await screenshot(ben, `${target}-25-vouched`);
    await vouchOn(ben);
    await ben.getByRole('alert').getByText('You have already vouched for this run').waitFor();
  });

  it('Ana’s card counts the vouch and shows it on the timeline; she cannot vouch for herself', async () => {
    await runWorkers(stack);
    await openApp(ana, stack, '/profile?tab=stakes');
    await row(ana)
      .getByText(/^Appeal under review · decided by .* · 1 group member vouched$/)
      .waitFor();
    await timeline(ana).getByText('Vouched for').waitFor();
    await timeline(ana).getByText('A member of your group vouched that you ran.').waitFor();
    await screenshot(ana, `${target}-25-vouch-on-card`, row(ana));
    await vouchOn(ana);
    await ana.getByRole('alert').getByText('You cannot vouch for your own stake').waitFor();
  });

  it('Cleo, in none of Ana’s groups, is told the appeal is not hers to vouch for', async () => {
    await vouchOn(cleo);
    await cleo
      .getByRole('alert')
      .getByText("This appeal is not one you can vouch for: only members of the runner's groups can.")
      .waitFor();
  });
});
