import type { Transaction } from 'kysely';
import { stakeDecider } from '../../../domain/stake/decide.ts';
import type { StakeEvent } from '../../../domain/stake/events.ts';
import type { StakeState } from '../../../domain/stake/state.ts';
import { foldEvents } from '../../../domain/shared/decider.ts';
import type { EventStore } from '../../../domain/shared/event-store.ts';

/** The stream of a stake. */
export function stakeStreamId(stakeId: string): string {
  return `stake-${stakeId}`;
}

/** Whether a recorded event belongs to a stake aggregate (not a release outcome stream). */
export function isStakeEvent(type: string): type is StakeEvent['type'] {
  return type.startsWith('Stake') && type !== 'StakeHoldReleaseConfirmed';
}

/** A stake's current state from its stream (inside `tx` when given). */
export async function loadStake(
  store: EventStore<Transaction<object>>,
  stakeId: string,
  tx?: Transaction<object>,
): Promise<StakeState> {
  const history = await store.readStream(stakeStreamId(stakeId), tx ? { transaction: tx } : {});
  return foldEvents(
    stakeDecider,
    history.map((e) => ({ type: e.type, data: e.data }) as StakeEvent),
  );
}
