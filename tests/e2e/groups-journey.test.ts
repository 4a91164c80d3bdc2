import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type E2eStack, startE2eStack } from './support/e2e-stack.ts';
import { trackedRunBody } from './support/fake-gps.ts';
import { apiFromPage, screenshot, signedInUser } from './support/journey.ts';

describe('journey: two runners share a group', () => {
  let stack: E2eStack;
  let owner: { context: BrowserContext; page: Page };
  let friend: { context: BrowserContext; page: Page };
  let inviteCode = '';
  let groupUrl = '';

  beforeAll(async () => {
    stack = await startE2eStack();
    [owner, friend] = await Promise.all([signedInUser(stack, 'Ada Owner'), signedInUser(stack, 'Bo Friend')]);
    await owner.page.goto(`${stack.webUrl}/groups`);
    await owner.page.getByRole('heading', { name: 'No groups yet' }).waitFor();
    // Ada ran 5 km an hour ago, before the group existed.
    const run = trackedRunBody(Date.now() - 60 * 60_000, 5);
    expect((await apiFromPage(owner.page, stack.apiUrl, 'POST', '/runs', run)).status).toBe(201);
  }, 120_000);

  afterAll(async () => {
    await stack?.close();
  });

  it('the owner creates a group; "Copied!" shows only once the clipboard took the invite code', async () => {
    const { page, context } = owner;
    // Straight to the groups (the dashboard would first celebrate Ada's First Steps badge).
    await page.goto(`${stack.webUrl}/groups`);
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Create Group' });
    await dialog.getByLabel('Group name').fill('ab');
    await dialog.getByRole('button', { name: 'Create Group' }).click();
    await dialog.getByText('Group name must be at least 3 characters').waitFor();
    await dialog.getByLabel('Group name').fill('Morning Milers');
    await dialog.getByRole('button', { name: 'Create Group' }).click();
    await dialog.waitFor({ state: 'detached' });
    // The new group opens.
    await page.waitForURL(/\/groups\/[^/]+$/);
    await page.getByRole('heading', { name: 'Morning Milers' }).waitFor();
    groupUrl = page.url();
    inviteCode = (await page.locator('.invite-code').textContent()) ?? '';
    expect(inviteCode).toMatch(/^[A-Z0-9]{8}$/);

    // A browser that refuses the clipboard (no permission, or a page not in focus): no 'Copied!'.
    await page.evaluate(() => {
      const clipboard = (navigator as unknown as { clipboard: { writeText(text: string): Promise<void> } }).clipboard;
      const write = clipboard.writeText.bind(clipboard);
      Object.assign(globalThis, { restoreClipboard: () => Object.assign(clipboard, { writeText: write }) });
      clipboard.writeText = () => Promise.reject(new DOMException('Write permission denied.', 'NotAllowedError'));
    });
    await page.getByRole('button', { name: 'Copy' }).click();
    await page.getByRole('alert').filter({ hasText: 'Could not copy. Select the code to copy it.' }).waitFor();
    expect(await page.getByRole('button', { name: 'Copied!' }).count()).toBe(0);
    await screenshot(page, 'groups-copy-refused-no-copied');

    await page.evaluate(() => (globalThis as unknown as { restoreClipboard(): void }).restoreClipboard());
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: stack.webUrl });
    await page.getByRole('button', { name: 'Copy' }).click();
    await page.getByRole('button', { name: 'Copied!' }).waitFor();
    const copied = await page.evaluate(() =>
      (navigator as unknown as { clipboard: { readText(): Promise<string> } }).clipboard.readText(),
    );
    expect(copied).toBe(inviteCode);
    await screenshot(page, 'groups-invite-code-copied');
    expect(await page.getByRole('region', { name: 'Members' }).getByText('Owner', { exact: true }).isVisible()).toBe(
      true,
    );
    expect(await page.getByRole('button', { name: 'Leave Group' }).count()).toBe(0);
  });

  it('a friend joins by code and cheers the owner’s run; the owner sees the reaction', async () => {
    const { page } = friend;
    await page.goto(`${stack.webUrl}/groups`);
    await page.getByRole('button', { name: 'Join', exact: true }).click();
    const join = page.getByRole('dialog', { name: 'Join Group' });
    await join.getByLabel('Invite code').fill('abc');
    await join.getByRole('button', { name: 'Join Group' }).click();
    await join.getByText('Invite code must be 8 characters').waitFor();
    await join.getByLabel('Invite code').fill(` ${inviteCode.toLowerCase()} `);
    await join.getByRole('button', { name: 'Join Group' }).click();
    await join.waitFor({ state: 'detached' });
    // The joined group opens.
    await page.waitForURL(groupUrl);
    await page.getByRole('heading', { name: 'Morning Milers' }).waitFor();
    expect(await page.locator('.invite-code').count()).toBe(0);
    await page.getByRole('button', { name: 'Leave Group' }).waitFor();

    const card = page.locator('.feed-item', { hasText: 'Ada Owner completed a run' });
    await card.getByRole('button', { name: 'Fire: 0' }).click();
    await card.getByRole('button', { name: 'Fire: 1', pressed: true }).waitFor();
    await screenshot(page, 'groups-friend-reacted', card);

    // The owner's open page follows the change (realtime), no reload.
    await owner.page
      .locator('.feed-item', { hasText: 'Ada Owner completed a run' })
      .getByRole('button', { name: 'Fire: 1', pressed: false })
      .waitFor();
    await screenshot(owner.page, 'groups-owner-sees-reaction');
  });

  it('shows both runners on the level leaderboard and the team challenges', async () => {
    const { page } = owner;
    await page.reload();
    const board = page.getByRole('region', { name: 'Leaderboard' });
    await board.getByText('Bo Friend').waitFor();
    const lines = await board.locator('li').allTextContents();
    // Ada earned XP for her 5 km; Bo has none yet: Ada leads.
    expect(lines[0]).toContain('Ada Owner');
    expect(lines[1]).toContain('Bo Friend');
    expect(lines[0]).toMatch(/Level \d+ · [1-9][\d,]* XP/);

    const challenges = page.getByRole('region', { name: 'Team challenges' });
    await challenges.getByRole('tab', { name: 'This Week' }).click();
    const week = await challenges.locator('li').allTextContents();
    expect(week[0]).toMatch(/Ada Owner.*5\.\d\d km/);
    expect(week[1]).toMatch(/Bo Friend.*0\.00 km/);
    await challenges.getByRole('tab', { name: 'Best Pace' }).click();
    await challenges.getByText(/5K 5:[23]\d \/km/).waitFor();
    await challenges.getByRole('tab', { name: 'Streaks' }).click();
    await challenges.getByText('0 wk').first().waitFor();
    await screenshot(page, 'groups-leaderboard', board);
    await challenges.getByRole('tab', { name: 'This Week' }).click();
    await screenshot(page, 'groups-team-challenges-this-week', challenges);
  });
});
