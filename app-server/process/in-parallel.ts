/** How many goals or stakes a clock tick works on at once: enough to hide round trips, few enough for the pool. */
export const TICK_CONCURRENCY = 8;

/**
 * Runs `work` for every item with at most `limit` at once, in order of the list within each worker. Rejects with the
 * first error once the workers in flight have stopped (no new item starts after an error).
 */
export async function inParallel<T>(
  items: readonly T[],
  limit: number,
  work: (item: T, index: number) => Promise<void>,
): Promise<void> {
  let next = 0;
  let failed = false;
  const results = await Promise.allSettled(
    Array.from({ length: Math.min(Math.max(1, limit), items.length) }, async () => {
      while (!failed && next < items.length) {
        const index = next++;
        try {
          await work(items[index]!, index);
        } catch (error) {
          failed = true;
          throw error;
        }
      }
    }),
  );
  const rejected = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (rejected) throw rejected.reason;
}

/**
 * Like inParallel, but items that share a key (the same stake, the same goal) run one after another in list order,
 * in one lane: two commands on one stream never race each other, while different streams proceed side by side.
 */
export async function inParallelByKey<T>(
  items: readonly T[],
  keyOf: (item: T) => string,
  limit: number,
  work: (item: T) => Promise<void>,
): Promise<void> {
  const lanes = new Map<string, T[]>();
  for (const item of items) {
    const key = keyOf(item);
    const lane = lanes.get(key);
    if (lane) lane.push(item);
    else lanes.set(key, [item]);
  }
  await inParallel([...lanes.values()], limit, async (lane) => {
    for (const item of lane) await work(item);
  });
}
