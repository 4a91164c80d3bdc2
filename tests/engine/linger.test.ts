import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../app-server/db/database.ts';
import type { EventStore } from '../../domain/shared/event-store.ts';
import { Engine } from '../../projections/engine/engine.ts';
import { RETRY_FOREVER } from '../../projections/engine/processor.ts';
import { newEvent } from '../contract/support/contract-events.ts';
import { openMemoryEngineStore } from './support/engine-store.ts';

/**
 * A dedicated worker hears of every append at once; without a linger it would apply a steady stream of runs one
 * transaction each. With `lingerMs`, after a short batch it waits before reading again, and what arrived meanwhile
 * comes as one batch. A full batch (a backlog) is followed by the next read at once, and stop() and hurry() (a
 * request waits for what arrived: app-server/process/read-models-wanted.ts) end a linger.
 */
describe('the engine’s linger after a short batch', () => {
  let database: Database;
  let store: EventStore;
  let close: () => Promise<void>;

  beforeAll(async () => {
    ({ database, store, close } = await openMemoryEngineStore());
  });
  afterAll(() => close?.());

  /** An engine following one processor of `type`, and the sizes of the batches it was handed. */
  function follower(type: string, options: { lingerMs: number; batchSize?: number }) {
    const batches: number[] = [];
    const engine = new Engine({
      db: database.db,
      store: store as EventStore<never>,
      ...options,
      processors: [
        {
          name: `linger-${randomUUID()}`,
          version: 1,
          eventTypes: [type],
          withoutFields: [],
          failure: RETRY_FOREVER,
          handle: async (events) => void batches.push(events.length),
        },
      ],
    });
    return { engine, batches };
  }

  async function appendOneByOne(type: string, count: number): Promise<void> {
    for (let n = 0; n < count; n++) await store.appendToStream(`linger-${randomUUID()}`, [newEvent(type, { n })]);
  }

  async function until(condition: () => boolean): Promise<void> {
    while (!condition()) await new Promise((resolve) => setTimeout(resolve, 5));
  }

  it('gathers the appends that arrive while it lingers into one batch', async () => {
    const type = `Steady-${randomUUID()}`;
    const { engine, batches } = follower(type, { lingerMs: 3_000 });
    engine.start();
    try {
      await appendOneByOne(type, 1);
      await until(() => batches.length === 1);
      // Five appends, each announced, while the engine lingers after its one-event batch: none is read alone.
      await appendOneByOne(type, 5);
      await engine.caughtUp();
      expect(batches).toEqual([1, 5]);
    } finally {
      await engine.stop();
    }
  });

  it('reads a backlog batch after batch without lingering between full ones', async () => {
    const type = `Backlog-${randomUUID()}`;
    await appendOneByOne(type, 6);
    // A linger after a full batch would hold this test for minutes, past its timeout.
    const { engine, batches } = follower(type, { lingerMs: 600_000, batchSize: 2 });
    engine.start();
    try {
      await engine.caughtUp();
      expect(batches).toEqual([2, 2, 2]);
    } finally {
      await engine.stop();
    }
  });

  it('stops at once when stopped during a linger', async () => {
    const type = `Stopped-${randomUUID()}`;
    const { engine, batches } = follower(type, { lingerMs: 600_000 });
    engine.start();
    await appendOneByOne(type, 1);
    await until(() => batches.length === 1);
    await engine.stop();
    expect(batches).toEqual([1]);
  });

  it('ends a linger when hurried: what arrived meanwhile is applied at once, not after the linger', async () => {
    const type = `Hurried-${randomUUID()}`;
    // Lingering the full ten minutes would hold caughtUp() past this test's timeout.
    const { engine, batches } = follower(type, { lingerMs: 600_000 });
    engine.start();
    try {
      await appendOneByOne(type, 1);
      await until(() => batches.length === 1);
      await appendOneByOne(type, 2);
      engine.hurry();
      await engine.caughtUp();
      expect(batches).toEqual([1, 2]);
    } finally {
      await engine.stop();
    }
  });

  it('keeps a hurry that comes while it does not linger, for its next linger', async () => {
    const type = `HurriedEarly-${randomUUID()}`;
    const { engine, batches } = follower(type, { lingerMs: 600_000 });
    // Nobody lingers yet: the hurry is kept, so the first linger ends at once and the second append is read.
    engine.hurry();
    engine.start();
    try {
      await appendOneByOne(type, 1);
      await until(() => batches.length === 1);
      await appendOneByOne(type, 1);
      await engine.caughtUp();
      expect(batches).toEqual([1, 1]);
    } finally {
      await engine.stop();
    }
  });
});
