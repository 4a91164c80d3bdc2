import type { LogPosition, RecordedEvent } from '../../../domain/shared/event-store.ts';
import type { UserCommandContext } from '../command-context.ts';
import { keyedEventId } from './request-key.ts';

/** What an earlier execution of the same keyed request left: its event and the head of the stream it is on. */
export interface EarlierExecution {
  readonly event: RecordedEvent;
  readonly head: LogPosition;
}

/**
 * Where an earlier execution of a keyed request shows: the aggregate it created (`created`: that stream exists, its
 * id being the key's), or the event it appended to a stream that existed before (`appended`: its `nth` keyed event).
 * `recorded`: the aggregate whose id the request's content decides (a run named by its recording,
 * commands/runs/recording-id.ts): any earlier request with that content created it, with a key or without one.
 */
export type KeyedTarget =
  | { readonly created: string }
  | { readonly recorded: string }
  | { readonly appended: string; readonly nth?: number };

/** The earlier execution of the context's keyed request on `target`, or null (also when there is no key). */
export async function earlierExecution(
  context: UserCommandContext,
  target: KeyedTarget,
): Promise<EarlierExecution | null> {
  if (!context.idempotency && !('recorded' in target)) return null;
  const streamId = 'created' in target ? target.created : 'recorded' in target ? target.recorded : target.appended;
  const events = await context.store.readStream(streamId);
  const head = events[events.length - 1]?.position;
  if (!head) return null;
  if (!('appended' in target)) return { event: events[0]!, head };
  if (!context.idempotency) return null;
  const id = keyedEventId(context.idempotency, target.nth ?? 0);
  const event = events.find((e) => e.metadata.eventId === id);
  return event ? { event, head } : null;
}

/**
 * Runs a keyed request's command at most once. When the same request ran before (a retry after a lost answer) the
 * command is skipped and `replay` answers from what it left; when a twin running in parallel gets there first, the
 * event store's idempotent re-append (same event ids) or the decider's refusal of a repeat leads to the same replay.
 * Without an Idempotency-Key the command simply runs, unless its target is `recorded` (named by the content).
 */
export async function oncePerKey<T>(
  context: UserCommandContext,
  target: KeyedTarget,
  run: () => Promise<T>,
  replay: (earlier: EarlierExecution) => T | Promise<T>,
): Promise<T> {
  const before = await earlierExecution(context, target);
  if (before) return replay(before);
  try {
    return await run();
  } catch (error) {
    // Refused as a repeat, beaten in a version race, or any other failure: if this request ran, answer with that.
    const earlier = await earlierExecution(context, target);
    if (earlier) return replay(earlier);
    throw error;
  }
}

/** The position of the last event of a stream (to wait for before reading what it made), or null when empty. */
export async function streamHead(context: UserCommandContext, streamId: string): Promise<LogPosition | null> {
  const [last] = await context.store.readStream(streamId, { direction: 'backwards', maxCount: 1 });
  return last?.position ?? null;
}
