import { vi } from 'vitest';
import { comparePositions, type EventStore } from '../../domain/shared/event-store.ts';

/**
 * Resolves once every transaction committed so far is visible to readers of the log. On PostgreSQL the log is read
 * up to a visible horizon, and a transaction still open elsewhere (another test's database on the same server, a
 * worker mid-batch) can hold that horizon behind the committed head for a moment: a read of the log right after a
 * write may miss the write. A test that reads the log for what it just caused waits here first. (The contract suite
 * reads again until it sees its events instead: logUntil in tests/contract/event-store.contract.test.ts.)
 */
export async function untilCommittedIsVisible(store: Pick<EventStore, 'headPosition'>): Promise<void> {
  const committed = await store.headPosition({ committed: true });
  if (!committed) return;
  await vi.waitFor(
    async () => {
      const visible = await store.headPosition();
      if (!visible || comparePositions(visible, committed) < 0) throw new Error('committed events not yet visible');
    },
    { timeout: 10_000, interval: 20 },
  );
}
