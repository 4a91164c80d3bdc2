import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { inParallel, inParallelByKey } from './in-parallel.ts';

const tick = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('inParallel', () => {
  it('works every item exactly once and never more than `limit` at once', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 0, max: 3 }), { maxLength: 40 }),
        fc.integer({ min: 1, max: 10 }),
        async (delays, limit) => {
          const seen: number[] = [];
          let running = 0;
          let most = 0;
          await inParallel(delays, limit, async (delay, index) => {
            running += 1;
            most = Math.max(most, running);
            await tick(delay);
            seen.push(index);
            running -= 1;
          });
          expect(seen.sort((a, b) => a - b)).toEqual(delays.map((_, i) => i));
          expect(most).toBeLessThanOrEqual(limit);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('rejects with the error and starts nothing after it', async () => {
    const started: number[] = [];
    const work = inParallel([0, 1, 2, 3, 4, 5, 6, 7], 2, async (item) => {
      started.push(item);
      await tick(1);
      if (item === 1) throw new Error('provider down');
    });
    await expect(work).rejects.toThrow('provider down');
    // Items 0 and 1 ran side by side; after 1 failed at most the lane still busy took one more.
    expect(started.length).toBeLessThanOrEqual(3);
  });
});

describe('inParallelByKey', () => {
  it('keeps the items of one key in list order, one at a time, while keys run side by side', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ key: fc.constantFrom('a', 'b', 'c', 'd'), delay: fc.integer({ min: 0, max: 2 }) }), {
          maxLength: 30,
        }),
        fc.integer({ min: 1, max: 4 }),
        async (items, limit) => {
          const order = new Map<string, number[]>();
          const busy = new Set<string>();
          const numbered = items.map((item, n) => ({ ...item, n }));
          await inParallelByKey(
            numbered,
            (item) => item.key,
            limit,
            async (item) => {
              expect(busy.has(item.key)).toBe(false);
              busy.add(item.key);
              await tick(item.delay);
              order.set(item.key, [...(order.get(item.key) ?? []), item.n]);
              busy.delete(item.key);
            },
          );
          for (const [key, ns] of order) {
            expect(ns).toEqual(numbered.filter((i) => i.key === key).map((i) => i.n));
          }
          expect([...order.values()].flat().length).toBe(items.length);
        },
      ),
      { numRuns: 200 },
    );
  });
});
