import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUDGETS, kb } from '../bench/web/budgets.ts';
import type { FirstLoad } from '../bench/web/first-load.ts';
import { appFirstLoad, landingFirstLoad } from '../bench/web/pages.ts';
import { type E2eStack, startE2eStack } from './support/e2e-stack.ts';

/** What a first load fetched, for the CI log. */
const report = (name: string, load: FirstLoad, budget: number) =>
  process.stdout.write(
    `${name}: ${load.scripts.length} scripts, ${kb(load.rawBytes)} raw, ${kb(load.gzipBytes)} gzipped (budget ${kb(budget)})\n`,
  );

/**
 * The first-load budgets of the issue (tests/bench/web/budgets.ts), on the production build every journey uses: a
 * phone visitor's cold load, counting every script the page fetched until it showed what it is for and went quiet
 * (entry, modulepreloads, lazy chunks), each gzipped at level 9 as the build precompresses it. `npm run bench`
 * prints the same figures with the paint; a change that grows either page past its budget fails here.
 */
describe('first-load JavaScript stays within its budget', () => {
  let stack: E2eStack;

  beforeAll(async () => {
    stack = await startE2eStack();
  }, 120_000);

  afterAll(async () => {
    await stack?.close();
  });

  it(`the landing page / fetches at most ${kb(BUDGETS.landingGzipBytes)} of gzipped JavaScript`, async () => {
    const load = await landingFirstLoad(stack);
    report('/', load, BUDGETS.landingGzipBytes);
    expect(load.scripts.length).toBeGreaterThan(0);
    expect(load.gzipBytes).toBeLessThanOrEqual(BUDGETS.landingGzipBytes);
  });

  it(`a signed-in runner's /app fetches at most ${kb(BUDGETS.appGzipBytes)} of gzipped JavaScript`, async () => {
    const load = await appFirstLoad(stack);
    report('/app', load, BUDGETS.appGzipBytes);
    // More than the landing page: the app itself was loaded and counted.
    expect(load.gzipBytes).toBeGreaterThan((await landingFirstLoad(stack)).gzipBytes);
    expect(load.gzipBytes).toBeLessThanOrEqual(BUDGETS.appGzipBytes);
  });
});
