import type { BrowserContext, BrowserContextOptions, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runWorkers } from './support/money-journey.ts';
import { type E2eStack, startE2eStack } from './support/e2e-stack.ts';
import { PHONE, screenshot, signedInUser, TIMEOUT } from './support/journey.ts';
import { fillLocalCard, futureExpiry } from './support/local-card.ts';

/** Wednesday 25 November 2026, 10:00 in New York: Thursday to Sunday of this week are still ahead. */
const WEDNESDAY = '2026-11-25T15:00:00.000Z';
const DESKTOP: BrowserContextOptions = { ...PHONE, viewport: { width: 1280, height: 800 }, deviceScaleFactor: 1 };

type Box = { x: number; y: number; width: number; height: number };
type PageCss = Record<
  | 'backgroundColor'
  | 'borderTopStyle'
  | 'borderTopColor'
  | 'visibility'
  | 'outlineStyle'
  | 'paddingLeft'
  | 'paddingRight',
  string
>;
/** The browser globals the page functions below use (the tests compile without the DOM library). */
type PageGlobals = {
  getComputedStyle(element: unknown): PageCss;
  scrollBy(x: number, y: number): void;
  scrollTo(x: number, y: number): void;
  document: { documentElement: { scrollHeight: number } };
};
const intersects = (a: Box, b: Box) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

async function box(locator: Locator): Promise<Box> {
  const found = await locator.boundingBox();
  if (!found) throw new Error(`${locator} is not on screen`);
  return found;
}

/** "A newcomer's first hour" (issue 26 items 8 and 10): how the screens are laid out, and the local card form. */
describe('journey: the first hour’s layout', () => {
  let stack: E2eStack;

  beforeAll(async () => {
    stack = await startE2eStack();
    stack.runtime.clock.set(WEDNESDAY);
  }, 120_000);

  afterAll(async () => {
    await stack?.close();
  });

  /** A new runner signed in on the server's clock, on a phone unless told otherwise, on `path`. */
  async function newcomer(name: string, path: string, context?: BrowserContextOptions) {
    stack.runtime.clock.set(WEDNESDAY);
    const signedIn = await signedInUser(stack, name, context ? { context } : {});
    await signedIn.context.clock.install({ time: new Date(WEDNESDAY) });
    await signedIn.page.goto(`${stack.webUrl}${path}`);
    return signedIn;
  }

  it('phone: the floating run button covers no word of the dashboard’s empty state, wherever the page is scrolled', async () => {
    const { context, page } = await newcomer('Fab Newcomer', '/app');
    try {
      await page.getByText('No activity yet').waitFor();
      const fab = page.getByRole('link', { name: 'Start a run' });
      const lines = page.locator('.feed-empty p');
      expect(await lines.count()).toBe(2);
      const clear = async (where: string) => {
        const button = await box(fab);
        for (let i = 0; i < 2; i += 1) {
          const line = await box(lines.nth(i));
          if (intersects(button, line)) {
            await screenshot(page, `first-hour-layout-fab-over-${where}`);
            throw new Error(`at ${where}, the run button ${JSON.stringify(button)} covers ${JSON.stringify(line)}`);
          }
        }
      };
      await clear('top');
      await screenshot(page, 'first-hour-layout-dashboard-empty-state');
      // Each line scrolled to the button's height: it must be beside the button, never under it.
      for (let i = 0; i < 2; i += 1) {
        const button = await box(fab);
        const line = await box(lines.nth(i));
        await page.evaluate(
          (by) => (globalThis as unknown as PageGlobals).scrollBy(0, by),
          line.y + line.height / 2 - (button.y + button.height / 2),
        );
        await clear(`line-${i + 1}-level-with-button`);
      }
      await page.evaluate(() => {
        const w = globalThis as unknown as PageGlobals;
        w.scrollTo(0, w.document.documentElement.scrollHeight);
      });
      await clear('bottom');
    } finally {
      await context.close();
    }
  });

  it('desktop: the landing page’s four feature cards start on one line (Add Stakes no lower than the others)', async () => {
    for (const width of [1024, 1280, 1440]) {
      const context = await stack.browser.newContext({ ...DESKTOP, viewport: { width, height: 900 } });
      try {
        const page = await context.newPage();
        page.setDefaultTimeout(TIMEOUT);
        await page.goto(stack.webUrl);
        const titles = ['Set Goals', 'Add Stakes', 'Join Groups', 'Earn Badges'];
        const cards = titles.map((title) => page.locator('article.feature', { hasText: title }));
        await cards[3]!.waitFor();
        const tops = await Promise.all(cards.map(async (card) => (await box(card)).y));
        const headings = await Promise.all(
          titles.map(async (title) => (await box(page.getByRole('heading', { name: title }))).y),
        );
        if (width === 1280) await screenshot(page, 'first-hour-layout-landing-features-desktop', cards[0]);
        for (const [i, title] of titles.entries()) {
          expect(Math.abs(tops[i]! - tops[0]!), `${title} card top at ${width}px: ${tops}`).toBeLessThanOrEqual(2);
          expect(
            Math.abs(headings[i]! - headings[0]!),
            `${title} heading at ${width}px: ${headings}`,
          ).toBeLessThanOrEqual(2);
        }
      } finally {
        await context.close();
      }
    }
  });

  for (const [device, options] of [
    ['phone', PHONE],
    ['desktop', DESKTOP],
  ] as const) {
    it(`${device}: the heatmap greys this week’s days still ahead, outlines today, and fills its card`, async () => {
      const { context, page } = await newcomer(`Heat ${device}`, '/profile', options);
      try {
        const heatmap = page.getByRole('region', { name: 'Activity heatmap' });
        await heatmap.getByRole('img', { name: '0 days with a run in the last 90 days' }).waitFor();
        await heatmap.scrollIntoViewIfNeeded();
        await screenshot(page, `first-hour-layout-heatmap-${device}`, heatmap);
        // Thursday 26 to Sunday 29 November are ahead: drawn, greyed, and said so.
        const ahead = heatmap.locator('.heatmap .cell.future');
        expect(await ahead.evaluateAll((cells) => cells.map((c) => c.getAttribute('title')))).toEqual([
          '2026-11-26: ahead',
          '2026-11-27: ahead',
          '2026-11-28: ahead',
          '2026-11-29: ahead',
        ]);
        const looks = await heatmap.evaluate((card) => {
          const { getComputedStyle } = globalThis as unknown as PageGlobals;
          const style = (selector: string) => {
            const cell = card.querySelector(selector)!;
            const s = getComputedStyle(cell);
            const r = cell.getBoundingClientRect();
            return {
              bg: s.backgroundColor,
              border: `${s.borderTopStyle} ${s.borderTopColor}`,
              visible: s.visibility,
              w: r.width,
              h: r.height,
              outline: s.outlineStyle,
            };
          };
          return {
            card: getComputedStyle(card).backgroundColor,
            future: style('.heatmap .cell.future'),
            past: style('.heatmap .cell:not(.out):not(.future):not(.today)'),
            today: style('.heatmap .cell.today'),
          };
        });
        expect(looks.future.visible).toBe('visible');
        expect(looks.future.w).toBeGreaterThan(8);
        // Greyed: it stands out from the card, and differs from a past day without a run.
        expect(looks.future.border).toMatch(/^dashed /);
        expect(`${looks.future.bg} ${looks.future.border}`).not.toBe(`${looks.past.bg} ${looks.past.border}`);
        expect(looks.future.border).not.toContain(looks.card);
        expect(looks.today.outline).toBe('solid');
        await heatmap.getByRole('listitem').filter({ hasText: 'Days ahead' }).waitFor();

        // The grid fills its card: no empty fifth on the right, no sideways scrolling.
        const fill = await heatmap.evaluate((card) => {
          const s = (globalThis as unknown as PageGlobals).getComputedStyle(card);
          const content = card.clientWidth - Number.parseFloat(s.paddingLeft) - Number.parseFloat(s.paddingRight);
          const left = card.getBoundingClientRect().left + Number.parseFloat(s.paddingLeft);
          const frame = card.querySelector('.heatmap-frame')!.getBoundingClientRect();
          const cells = [...card.querySelectorAll('.heatmap .cell')].map((c) => c.getBoundingClientRect());
          const scroll = card.querySelector('.heatmap-scroll')!;
          return {
            content,
            frame: frame.width,
            rightGap: left + content - Math.max(...cells.map((c) => c.right)),
            leftGap: frame.left - left,
            overflow: scroll.scrollWidth - scroll.clientWidth,
            square: cells.every((c) => Math.abs(c.width - c.height) < 1),
          };
        });
        expect(fill.frame / fill.content, JSON.stringify(fill)).toBeGreaterThanOrEqual(0.9);
        expect(fill.rightGap, JSON.stringify(fill)).toBeLessThanOrEqual(4);
        expect(fill.leftGap, JSON.stringify(fill)).toBeLessThanOrEqual(4);
        expect(fill.overflow, JSON.stringify(fill)).toBeLessThanOrEqual(0);
        expect(fill.square).toBe(true);
      } finally {
        await context.close();
      }
    });
  }

  describe('the local card form (no Stripe key: the local gateway)', () => {
    let context: BrowserContext;
    let page: Page;
    const payment = () => page.getByRole('dialog', { name: 'Payment Method' });
    const save = () => payment().getByRole('button', { name: 'Save Card' }).click();
    const field = (label: string) => payment().getByLabel(label, { exact: true });
    /** The sentence under a field, tied to it for screen readers. */
    const sentenceOf = async (label: string) => {
      const id = await field(label).getAttribute('aria-describedby');
      return id ? await page.locator(`[id="${id}"]`).textContent() : null;
    };

    beforeAll(async () => {
      ({ context, page } = await newcomer('Card Newcomer', '/goals'));
    }, 60_000);
    afterAll(() => context?.close());

    it('asks for number, expiry, CVC and postcode; the fields look empty, and a hint names the test card', async () => {
      await page.getByRole('button', { name: 'Create Your First Goal' }).click();
      await page.getByLabel('Target (km)').fill('10');
      await page.getByRole('button', { name: 'Next', exact: true }).click();
      await page.getByRole('dialog', { name: 'Add a Stake' }).getByRole('button', { name: '$10', exact: true }).click();
      await page.getByRole('button', { name: 'Next', exact: true }).click();
      await page.getByRole('dialog', { name: 'Confirm Your Stake' }).waitFor();
      await page.getByRole('button', { name: 'Next', exact: true }).click();
      await field('Card number').waitFor();
      const shown = [];
      for (const label of ['Card number', 'Expiry', 'CVC', 'Postcode']) {
        shown.push([label, await field(label).inputValue(), await field(label).getAttribute('placeholder')]);
      }
      expect(shown).toEqual([
        ['Card number', '', '1234 1234 1234 1234'],
        ['Expiry', '', 'MM / YY'],
        ['CVC', '', 'CVC'],
        ['Postcode', '', 'Postcode'],
      ]);
      await payment()
        .getByText(/use the test card 4242 4242 4242 4242 with any future expiry/)
        .waitFor();
      await screenshot(page, 'first-hour-layout-local-card-form');
    });

    it('Save Card with nothing typed names each missing field under it, and saves nothing', async () => {
      await save();
      await payment().getByText('Your card number is incomplete.').waitFor();
      expect([
        await sentenceOf('Card number'),
        await sentenceOf('Expiry'),
        await sentenceOf('CVC'),
        await sentenceOf('Postcode'),
      ]).toEqual([
        'Your card number is incomplete.',
        'Your card’s expiration date is incomplete.',
        'Your card’s security code is incomplete.',
        'Your postcode is incomplete.',
      ]);
      expect(await field('Expiry').getAttribute('aria-invalid')).toBe('true');
      expect(await page.getByRole('dialog', { name: 'Choose a Charity' }).count()).toBe(0);
    });

    it('refuses a mistyped number, a past or impossible expiry and a short CVC, each with its sentence', async () => {
      await fillLocalCard(payment(), '4242 4242 4242 4241', { expiry: '10 / 26', cvc: '12', postcode: '10001' });
      await save();
      await payment().getByText('Your card number is invalid.').waitFor();
      expect([await sentenceOf('Card number'), await sentenceOf('Expiry'), await sentenceOf('CVC')]).toEqual([
        'Your card number is invalid.',
        'Your card’s expiration date is in the past.',
        'Your card’s security code is incomplete.',
      ]);
      expect(await sentenceOf('Postcode')).toBeNull();
      await field('Expiry').fill('13 / 30');
      await payment().getByText('Your card’s expiration date is invalid.').waitFor();
      // The expiry field writes the slash itself: four digits read as 'MM / YY'.
      await field('Expiry').fill('1130');
      expect(await field('Expiry').inputValue()).toBe('11 / 30');
      await field('CVC').fill('1234');
      await field('Card number').fill('4242424242424242');
      expect(await field('Card number').inputValue()).toBe('4242 4242 4242 4242');
      for (const label of ['Card number', 'Expiry', 'CVC', 'Postcode']) expect(await sentenceOf(label)).toBeNull();
      await screenshot(page, 'first-hour-layout-local-card-form-filled');
    });

    it('a good card saves; the goal is created with its stake, and the hold shows Active on the Stakes tab', async () => {
      await fillLocalCard(payment(), '4242 4242 4242 4242', { expiry: futureExpiry(new Date(WEDNESDAY)) });
      await save();
      const charity = page.getByRole('dialog', { name: 'Choose a Charity' });
      await charity.getByRole('button', { name: /GiveDirectly/ }).click();
      await charity.getByRole('button', { name: 'Create Goal' }).click();
      await charity.waitFor({ state: 'detached' });
      await page.getByRole('region', { name: "This week's goal" }).getByText('$10 at stake').waitFor();
      await runWorkers(stack);
      await page.goto(`${stack.webUrl}/profile?tab=stakes`);
      const row = page.getByRole('list', { name: 'Stakes' }).locator('li', { hasText: 'Week of Nov 23' });
      await row.getByText('Active', { exact: true }).waitFor();
      await page.getByRole('region', { name: 'Saved cards' }).getByText('Visa •••• 4242').waitFor();
      await screenshot(page, 'first-hour-layout-stake-active');
    });
  });
});
