import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseLimitCounter } from '../../app-server/http/limits/limit-counter.ts';
import { databaseTargets, startTestRuntime, type TestRuntime } from '../support/test-runtime.ts';

/*
 * The database limit counter sends the hits made side by side in one upsert (limit-counter.ts). Whatever the grouping,
 * each hit must get the verdict it would get if the hits had been counted one after the other in the order they were
 * made: a burst of N on one key lets exactly `max` through, a key named by several hits of one group is counted once
 * per hit, and a window that ended starts again at the hit that found it ended.
 */
describe.each(databaseTargets())('the database limit counter, hits grouped, on %s', (target) => {
  let rt: TestRuntime;
  let run = 0;

  beforeAll(async () => {
    rt = await startTestRuntime(target, { now: '2026-11-18T12:00:00Z' });
  }, 60_000);
  afterAll(() => rt?.close());

  it('answers each hit of parallel bursts as hits counted one after the other would be answered', async () => {
    const WINDOW = 60;
    const hit = fc.record({
      keys: fc.uniqueArray(fc.constantFrom('a', 'b', 'c', 'd'), { minLength: 1, maxLength: 3 }),
      max: fc.integer({ min: 1, max: 4 }),
    });
    const burst = fc.record({ hits: fc.array(hit, { minLength: 1, maxLength: 12 }), waitSeconds: fc.nat(90) });
    await fc.assert(
      fc.asyncProperty(fc.array(burst, { minLength: 1, maxLength: 4 }), async (bursts) => {
        const prefix = `groups-test-${run++}:`;
        const counter = databaseLimitCounter(rt.database.db, rt.clock);
        // The model: each key's window start and count, hits counted in the order they were made.
        const model = new Map<string, { start: number; count: number }>();
        for (const { hits, waitSeconds } of bursts) {
          rt.clock.advance(waitSeconds * 1000);
          const at = rt.clock.now().getTime();
          const expected = hits.map(({ keys, max }) => {
            const counts = keys.map((key) => {
              const open = model.get(key);
              const w = open && open.start > at - WINDOW * 1000 ? open : { start: at, count: 0 };
              model.set(key, w);
              w.count += 1;
              return w.count;
            });
            return counts.every((n) => n <= max);
          });
          const verdicts = await Promise.all(
            hits.map(({ keys, max }) => counter.hit(keys.map((key) => ({ key: prefix + key, max })), WINDOW)),
          );
          expect(verdicts.map((v) => v.allowed)).toEqual(expected);
        }
      }),
      { numRuns: 60 },
    );
  });
});
