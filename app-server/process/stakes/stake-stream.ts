import type { Transaction } from 'kysely';
import { streams } from '../../../domain/shared/streams.ts';
import type { EventStore } from '../../../domain/shared/event-store.ts';
import { stakeDecider } from '../../../domain/stake/decide.ts';
import type { StakeEvent } from '../../../domain/stake/events.ts';
import type { StakeState } from '../../../domain/stake/state.ts';
import { loadAggregate } from '../../commands/execute-command.ts';

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
  return (await loadAggregate(store, stakeDecider, streams.stake(stakeId), tx)).state;
}
