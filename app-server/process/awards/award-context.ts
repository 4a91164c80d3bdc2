import { createHash } from 'node:crypto';
import type { Transaction } from 'kysely';
import { accountDecider, accountStreamId } from '../../../domain/account/decide.ts';
import type { Decider } from '../../../domain/shared/decider.ts';
import type { EventStore, RecordedEvent } from '../../../domain/shared/event-store.ts';
import type { CommandMetadata } from '../../commands/execute-command.ts';

/** §3: users without a stored time zone are on Eastern time. */
export const DEFAULT_TIME_ZONE = 'America/New_York';

/** A user's badge collection stream (see domain/badge/decide.ts). */
export function badgeStreamId(userId: string): string {
  return `badges-${userId}`;
}

/**
 * A UUID derived from its parts: an award caused by the same event gets the same ids on a redelivery, and a badge
 * gets the same id in every rebuild. Formatted as a version-8 (custom) UUID so the store's uuid column takes it.
 */
export function deterministicUuid(...parts: readonly string[]): string {
  const hex = createHash('sha256').update(parts.join('\u0000')).digest('hex');
  const variant = ((Number.parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** Metadata for the events a process manager appends because of `cause`; ids are derived from the cause. */
export function causedBy(processName: string, cause: RecordedEvent, now: Date, salt = ''): CommandMetadata {
  let counter = 0;
  return {
    actorId: `system:${processName}`,
    correlationId: cause.metadata.correlationId,
    causationId: cause.metadata.eventId,
    now,
    newEventId: () => deterministicUuid(processName, cause.metadata.eventId, salt, String(counter++)),
  };
}

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
  const state = await foldStream(store, tx, accountDecider, accountStreamId(userId));
  return state.status === 'active' ? state.timezone : DEFAULT_TIME_ZONE;
}
