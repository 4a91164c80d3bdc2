import type { Transaction } from 'kysely';
import { type Decider, foldEvents } from '../../domain/shared/decider.ts';
import type { EventStore } from '../../domain/shared/event-store.ts';

/**
 * Many streams of one kind read in one query inside a process manager's batch transaction, each folded by `decider`:
 * their states by stream id, every id asked for a key (the initial state for a stream with no events).
 */
export async function foldStreams<C, E, S>(
  store: EventStore<Transaction<object>>,
  tx: Transaction<object>,
  decider: Decider<C, E, S>,
  streamIds: readonly string[],
): Promise<Map<string, S>> {
  const ids = [...new Set(streamIds)];
  const states = new Map<string, S>();
  if (ids.length === 0) return states;
  const histories = await store.readStreams(ids, { transaction: tx });
  for (const id of ids) {
    const history = histories.get(id) ?? [];
    states.set(
      id,
      foldEvents(
        decider,
        history.map((e) => ({ type: e.type, data: e.data }) as E),
      ),
    );
  }
  return states;
}
