import { randomUUID } from 'node:crypto';
import type { NewEvent } from '../../../domain/shared/event-store.ts';

/** A realistic event (a logged run, ~300 bytes with metadata) for every store in the bench. */
export function benchEvent(streamId: string, sequence: number): NewEvent {
  const eventId = randomUUID();
  return {
    type: 'RunLogged',
    data: {
      runId: eventId,
      streamId,
      sequence,
      distanceM: 5012.5,
      movingTimeS: 1710,
      startedAt: '2026-11-22T07:31:00Z',
    },
    metadata: {
      eventId,
      occurredAt: '2026-11-22T08:00:00.000Z',
      actorId: 'user-1',
      correlationId: eventId,
      causationId: null,
      schemaVersion: 1,
    },
  };
}

/** Runs `writers` loops of `step` for `durationMs`; returns the units each step reports per second. */
export async function throughput(
  writers: number,
  durationMs: number,
  step: (writer: number, iteration: number) => Promise<number>,
): Promise<number> {
  let units = 0;
  const started = performance.now();
  const deadline = started + durationMs;
  await Promise.all(
    Array.from({ length: writers }, async (_, writer) => {
      for (let i = 0; performance.now() < deadline; i++) {
        // Await first, then add: `units += await …` reads `units` before the await, and concurrent writers would
        // overwrite each other's counts.
        const done = await step(writer, i);
        units += done;
      }
    }),
  );
  return units / ((performance.now() - started) / 1000);
}

/** Seconds since `started` (performance.now()). */
export function secondsSince(started: number): number {
  return (performance.now() - started) / 1000;
}
