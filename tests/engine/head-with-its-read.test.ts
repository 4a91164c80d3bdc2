import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../app-server/db/database.ts';
import { comparePositions, type EventStore, type LogPosition } from '../../domain/shared/event-store.ts';
import { Engine } from '../../projections/engine/engine.ts';
import { RETRY_FOREVER } from '../../projections/engine/processor.ts';
import { newEvent } from '../contract/support/contract-events.ts';
import { openMemoryEngineStore } from './support/engine-store.ts';

/*
 * On PostgreSQL the log's visible horizon is worked out per statement, and a later statement can see less than an
 * earlier one: a transaction of another database that ends between a statement's snapshot and its look at the
 * server's sessions holds that statement's horizon back (visible-horizon.ts). The engine used to read the head in
 * one statement and the events in the next, and to move a processor to that head after a short read: the events the
 * second statement could not see yet were passed for good (CI lost 68 of a workload that way, under load). Here a
 * store plays that moment: its head, read alone, runs ahead of what its reads return for a while. A follower must
 * still get every event.
 */
describe('the engine moves a processor only to a head its own read saw', () => {
  let database: Database;
  let store: EventStore;
  let close: () => Promise<void>;

  beforeAll(async () => {
    ({ database, store, close } = await openMemoryEngineStore());
  });
  afterAll(() => close?.());

  it('delivers the events a read could not see yet, though a head read apart had passed them', async () => {
    const stream = `horizon-${randomUUID()}`;
    await store.appendToStream(stream, [newEvent('Seen', { n: 1 }), newEvent('Seen', { n: 2 })]);
    await store.appendToStream(stream, [newEvent('Late', { n: 3 }), newEvent('Late', { n: 4 })]);
    const all = await store.readAll();
    const hiddenFrom: LogPosition = all.find((e) => e.type === 'Late')!.position;
    // For its first reads the store hides the two last events, as a statement with a lower horizon would.
    let lowerHorizonReads = 3;
    const hides = <T extends { position: LogPosition }>(events: T[]) =>
      lowerHorizonReads-- > 0 ? events.filter((e) => comparePositions(e.position, hiddenFrom) < 0) : events;
    const lagging: EventStore = {
      ...store,
      appendToStream: (...args) => store.appendToStream(...args),
      appendToStreams: (...args) => store.appendToStreams(...args),
      readStream: (...args) => store.readStream(...args),
      readStreams: (...args) => store.readStreams(...args),
      readAll: async (options) => hides(await store.readAll(options)),
      readAllToHead: async (options) => {
        const read = await store.readAllToHead(options);
        const events = hides(read.events);
        // The same read's head is consistent with what it returned.
        const head = events.length < read.events.length ? (events.at(-1)?.position ?? null) : read.head;
        return { events, head };
      },
      // Read alone, the head sees everything.
      headPosition: (options) => store.headPosition(options),
      onAppended: (listener) => store.onAppended(listener),
      close: () => store.close(),
    };
    const seen: number[] = [];
    const engine = new Engine({
      db: database.db,
      store: lagging as never,
      idleMs: 50,
      processors: [
        {
          name: `follower-${randomUUID()}`,
          version: 1,
          eventTypes: ['Seen', 'Late'],
          withoutFields: [],
          failure: RETRY_FOREVER,
          handle: async (events) => {
            for (const e of events) if (e.streamId === stream) seen.push((e.data as { n: number }).n);
          },
        },
      ],
    });
    engine.start();
    try {
      await engine.caughtUp();
    } finally {
      await engine.stop();
    }
    expect(seen).toEqual([1, 2, 3, 4]);
  });
});
