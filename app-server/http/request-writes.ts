import type { Context } from 'hono';
import type { Transaction } from 'kysely';
import { comparePositions, type EventStore, type LogPosition, withAppends } from '../../domain/shared/event-store.ts';
import type { RequestAppends } from '../commands/idempotency/keyed-request.ts';
import type { AppEnv } from './app-env.ts';

/*
 * What a request appended, so its read-your-writes wait follows from its events (read-your-writes.ts) instead of a
 * list each route keeps. The command context's store records every append that succeeds, whatever command made it
 * and however many streams it touched (a goal, its week and its stake in one transaction). An attempt rolled back
 * and run again (executeInTransaction) leaves its types recorded too: waiting for one read model more is harmless,
 * one fewer is the bug this prevents.
 */

/** The event types a request appended, and where each append landed. */
export interface RequestWrites {
  readonly eventTypes: Set<string>;
  readonly positions: LogPosition[];
}

type Tx = Transaction<object>;

/** `store` for this request's commands: the same store, every successful append noted in the request. */
export function recordingWrites(c: Context<AppEnv>, store: EventStore<Tx>): EventStore<Tx> {
  const writes = requestWrites(c);
  const note = (events: readonly { readonly type: string }[], position: LogPosition) => {
    for (const { type } of events) writes.eventTypes.add(type);
    writes.positions.push(position);
  };
  return withAppends(store, {
    async appendToStream(streamId, events, options) {
      const result = await store.appendToStream(streamId, events, options);
      note(events, result.position);
      return result;
    },
    async appendToStreams(appends, options) {
      const results = await store.appendToStreams(appends, options);
      for (const [i, a] of appends.entries()) note(a.events, results[i]!.position);
      return results;
    },
  });
}

/**
 * The event types this request appended, when its write at `position` is one of its own appends (or, for a keyed
 * repeat, one its first call recorded: requestAppends); 'unknown' when it is not (a repeat of a call recorded before
 * appends were, or an append that did not go through recordingWrites): the caller then waits for every read model.
 */
export function writtenTypes(c: Context<AppEnv>, position: LogPosition): readonly string[] | 'unknown' {
  const writes = c.get('writes');
  const own = writes?.positions.some((p) => comparePositions(p, position) === 0);
  return writes && own ? [...writes.eventTypes] : 'unknown';
}

/**
 * This request's appends for its Idempotency-Key's outcome (keyed-request.ts): recorded with the result, and given
 * back on a replay, so a repeat that appends nothing waits for what the first call's events reach, as it did.
 */
export function requestAppends(c: Context<AppEnv>): RequestAppends {
  return {
    read: () => {
      const writes = requestWrites(c);
      return { eventTypes: [...writes.eventTypes], positions: [...writes.positions] };
    },
    restore: ({ eventTypes, positions }) => {
      const writes = requestWrites(c);
      for (const type of eventTypes) writes.eventTypes.add(type);
      writes.positions.push(...positions);
    },
  };
}

function requestWrites(c: Context<AppEnv>): RequestWrites {
  const existing = c.get('writes');
  if (existing) return existing;
  const writes: RequestWrites = { eventTypes: new Set(), positions: [] };
  c.set('writes', writes);
  return writes;
}
