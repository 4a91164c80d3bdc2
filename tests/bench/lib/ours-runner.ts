import type { Kysely } from 'kysely';
import type { EventStore, NewEvent } from '../../../domain/shared/event-store.ts';
import { followLog } from '../../contract/support/follow-log.ts';
import { benchEvent, secondsSince, throughput } from './bench-events.ts';

// Measurements repeat in rounds: each run gets its own stream names so a fresh stream is really fresh.
let run = 0;

/** Single-event appends per second, each to a fresh stream with expectedVersion 'no_stream'. */
export function oursSingleAppends(store: EventStore, writers: number, durationMs: number): Promise<number> {
  const round = ++run;
  return throughput(writers, durationMs, async (writer, i) => {
    const streamId = `single-${round}-${writers}-${writer}-${i}`;
    await store.appendToStream(streamId, [benchEvent(streamId, 0)], { expectedVersion: 'no_stream' });
    return 1;
  });
}

/** Events per second appended as `size`-event appends, each checking the exact expected revision. */
export function oursBatchAppends(store: EventStore, size: number, durationMs: number, tag = 'batch'): Promise<number> {
  return throughput(1, durationMs, async (_, i) => {
    const streamId = `${tag}-${i % 50}`;
    const events = Array.from({ length: size }, (_, k) => benchEvent(streamId, k));
    await store.appendToStream(streamId, events, { expectedVersion: 'any' });
    return size;
  });
}

/** Events per second for a fresh checkpointed subscriber to catch up with the whole log (a projection rebuild). */
export async function oursRebuild(
  db: Kysely<object>,
  store: EventStore,
  checkpointName: string,
  batchSize: number,
): Promise<number> {
  let count = 0;
  const started = performance.now();
  const subscription = followLog(db, store as EventStore<never>, [
    {
      checkpointName,
      batchSize,
      handle: async (events) => {
        count += events.length;
      },
    },
  ]);
  await subscription.caughtUp();
  const seconds = secondsSince(started);
  await subscription.stop();
  return count / seconds;
}

/**
 * Rebuilds from position 0 while `writers` append (single and 5-event appends), then counts the appended events
 * the rebuild never delivered, and the ones it delivered twice.
 */
export async function oursLostUnderLoad(
  db: Kysely<object>,
  store: EventStore,
  writers: number,
  durationMs: number,
): Promise<{ appended: number; lost: number; duplicated: number }> {
  const appended = new Set<string>();
  const seen = new Map<string, number>();
  const subscription = followLog(db, store as EventStore<never>, [
    {
      checkpointName: `lost-${Date.now()}`,
      batchSize: 1000,
      handle: async (events) => {
        for (const e of events) seen.set(e.metadata.eventId, (seen.get(e.metadata.eventId) ?? 0) + 1);
      },
    },
  ]);
  await throughput(writers, durationMs, async (writer, i) => {
    const streamId = `lost-${writer}-${i % 20}`;
    const events: NewEvent[] = Array.from({ length: i % 3 === 0 ? 5 : 1 }, (_, k) => benchEvent(streamId, k));
    await store.appendToStream(streamId, events);
    for (const e of events) appended.add(e.metadata.eventId);
    return events.length;
  });
  await subscription.caughtUp();
  await subscription.stop();
  let lost = 0;
  for (const id of appended) if (!seen.has(id)) lost++;
  const duplicated = [...seen.values()].filter((n) => n > 1).length;
  return { appended: appended.size, lost, duplicated };
}
