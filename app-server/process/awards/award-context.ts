import type { Transaction } from 'kysely';
import { accountDecider } from '../../../domain/account/decide.ts';
import type { Decider } from '../../../domain/shared/decider.ts';
import type { EventStore } from '../../../domain/shared/event-store.ts';
import { streams } from '../../../domain/shared/streams.ts';
import { DEFAULT_TIME_ZONE } from '../../../domain/shared/time-zone.ts';
import { foldStreams } from '../fold-streams.ts';

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

/** Each user's current time zone from their account stream (read in one query); the default when it has none. */
export async function timeZonesOf(
  store: EventStore<Transaction<object>>,
  tx: Transaction<object>,
  userIds: readonly string[],
): Promise<Map<string, string>> {
  const accounts = await foldStreams(
    store,
    tx,
    accountDecider,
    userIds.map((id) => streams.account(id)),
  );
  const zones = new Map<string, string>();
  for (const userId of userIds) {
    const state = accounts.get(streams.account(userId))!;
    zones.set(userId, state.status === 'active' ? state.timezone : DEFAULT_TIME_ZONE);
  }
  return zones;
}
