import type { Transaction } from 'kysely';
import type { Decider } from '../../domain/shared/decider.ts';
import type { EventStore } from '../../domain/shared/event-store.ts';
import type { DomainEvent } from '../commands/execute-command.ts';
import { DecisionBatch } from '../commands/decision-batch.ts';

/**
 * Many streams of one kind read in one query inside a process manager's batch transaction, each folded by `decider`:
 * their states by stream id, every id asked for a key (the initial state for a stream with no events).
 *
 * The states are remembered between batches (stream-state-cache.ts: each stream is then read only from the newest
 * event remembered, checked to be still there), so a runner's goal index or account is not read whole for every run.
 * Only for streams whose states hold no personal fields.
 */
export async function foldStreams<C, E extends DomainEvent, S>(
  store: EventStore<Transaction<object>>,
  tx: Transaction<object>,
  decider: Decider<C, E, S>,
  streamIds: readonly string[],
): Promise<Map<string, S>> {
  const ids = [...new Set(streamIds)];
  const states = new Map<string, S>();
  if (ids.length === 0) return states;
  const batch = new DecisionBatch(store, decider, tx, { rememberStates: true });
  await batch.load(ids);
  for (const id of ids) states.set(id, await batch.state(id));
  return states;
}
