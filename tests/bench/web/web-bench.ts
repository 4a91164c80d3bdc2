import { BUDGETS, kb } from './budgets.ts';
import type { FirstLoad } from './first-load.ts';
import { appFirstLoad, landingFirstLoad, type LoadOptions } from './pages.ts';
import { paintFloorMs } from './paint-floor.ts';
import { startWebBenchStack } from './web-stack.ts';

const say = (line: string) => process.stdout.write(`${line}\n`);

/** How many cold loads each paint figure is the median of (BENCH_WEB_RUNS; 0 measures bytes only). */
const RUNS = Math.max(0, Number(process.env.BENCH_WEB_RUNS ?? 5));

const median = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
};

const verdict = (value: number, budget: number) => (value <= budget ? 'within' : 'OVER');

/**
 * The web app's first load as a phone visitor meets it (tests/bench/web/pages.ts): the JavaScript `/` and `/app`
 * fetch (gzipped, as precompressed; and what crossed the wire from the `npm start` static server), and the largest
 * contentful paint at 390×844 with the CPU slowed 4× (median of RUNS cold loads), each beside its budget.
 */
export async function runWebBench(): Promise<void> {
  const stack = await startWebBenchStack();
  try {
    const pages: { name: string; budget: number; load: (o: LoadOptions) => Promise<FirstLoad> }[] = [
      { name: '/', budget: BUDGETS.landingGzipBytes, load: (o) => landingFirstLoad(stack, o) },
      { name: '/app', budget: BUDGETS.appGzipBytes, load: (o) => appFirstLoad(stack, o) },
    ];
    say(`| page | scripts | JS raw | JS gzip (budget) | on the wire | LCP, 4× CPU, median of ${RUNS} (budget) |`);
    say('| --- | --- | --- | --- | --- | --- |');
    for (const { name, budget, load } of pages) {
      // One unthrottled load for the bytes, then the throttled ones for the paint.
      const bytes = await load({});
      const paints: number[] = [];
      for (let run = 0; run < RUNS; run++) {
        const throttled = await load({ cpuThrottling: BUDGETS.cpuThrottling });
        if (throttled.lcpMs !== null) paints.push(throttled.lcpMs);
      }
      const lcp = paints.length > 0 ? median(paints) : null;
      const encodings = [...new Set(bytes.scripts.map((s) => s.encoding || 'identity'))].join('+');
      say(
        `| ${name} | ${bytes.scripts.length} | ${kb(bytes.rawBytes)} | ${kb(bytes.gzipBytes)} (≤ ${kb(budget)}: ${verdict(bytes.gzipBytes, budget)}) | ${kb(bytes.transferredBytes)} ${encodings} | ${lcp === null ? 'n/a' : `${lcp} ms`} (≤ ${BUDGETS.lcpMs} ms: ${lcp === null ? 'n/a' : verdict(lcp, BUDGETS.lcpMs)}) |`,
      );
      if (process.env.BENCH_WEB_VERBOSE === '1')
        for (const s of bytes.scripts)
          say(`    ${s.url.replace(stack.webUrl, '')} ${kb(s.rawBytes)} → ${kb(s.gzipBytes)}`);
    }
    if (RUNS > 0) {
      const floor = await paintFloorMs(stack.browser, BUDGETS.cpuThrottling, RUNS);
      say(
        `\nPaint floor of this machine now (a one-heading HTML page, no script or stylesheet, same viewport and CPU): ${floor === null ? 'n/a' : `${floor} ms`}`,
      );
    }
  } finally {
    await stack.close();
  }
}
