import type { Transaction } from 'kysely';
import { accountDecider } from '../../../domain/account/decide.ts';
import type { Decider } from '../../../domain/shared/decider.ts';
import type { EventStore } from '../../../domain/shared/event-store.ts';
import { streams } from '../../../domain/shared/streams.ts';
import { DEFAULT_TIME_ZONE } from '../../../domain/shared/time-zone.ts';

/** Folds a stream read inside the process manager's transaction. */
export async function foldStream<C, E, S>(
  store: EventStore<Transaction<object>>,
  tx: Transaction<object>,
  decider: Decider<C, E, S>,
  streamId: string,
): Promise<S> {
  const events = await store.readStream(streamId, { transaction: tx });
  return events.reduce((s, e) => decider.evolve(s, { type: e.type, data: e.data } as E), decider.initialState);
}

/** The user's current time zone from their account stream, or the default. */
export async function timeZoneOf(store: EventStore<Transaction<object>>, tx: Transaction<object>, userId: string) {
  const state = await foldStream(store, tx, accountDecider, streams.account(userId));
  return state.status === 'active' ? state.timezone : DEFAULT_TIME_ZONE;
}
