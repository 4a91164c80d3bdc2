import { left, right } from 'fp-ts/lib/Either.js';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { DecisionBatch } from '../../app-server/commands/decision-batch.ts';
import type { CommandMetadata } from '../../app-server/commands/event-metadata.ts';
import { executeCommand } from '../../app-server/commands/execute-command.ts';
import { BoundedMap } from '../../app-server/bounded-map.ts';
import type { Database } from '../../app-server/db/database.ts';
import { defineDecider, domainError } from '../../domain/shared/decider.ts';
import type { EventStore } from '../../domain/shared/event-store.ts';
import { openMemoryEngineStore } from '../engine/support/engine-store.ts';

/*
 * A batch that remembers states (stream-state-cache.ts) reads a stream again only from the revision it remembers. What
 * it decides on must always be what a fresh read of the whole stream folds to: after another writer appended, after
 * its own write was rolled back, and once the entry was pushed out.
 */

type Cmd = { type: 'Add'; n: number };
type Ev = { type: 'Added'; data: { n: number } };
const counter = defineDecider<Cmd, Ev, number>({
  initialState: 0,
  evolve: (total, e) => total + e.data.n,
  decide: (cmd, total) =>
    total + cmd.n > 100
      ? left(domainError('conflict', 'too_much', ''))
      : right([{ type: 'Added', data: { n: cmd.n } }]),
  eventSchema: z.object({ type: z.literal('Added'), data: z.object({ n: z.number() }) }) as unknown as z.ZodType<Ev>,
});

const metadata = (): CommandMetadata => ({
  actorId: null,
  correlationId: randomUUID(),
  now: new Date(),
  newEventId: () => randomUUID(),
});

describe('a decision batch that remembers states', () => {
  let database: Database;
  let store: EventStore;
  let close: () => Promise<void>;
  /** The revisions each readStreams call was asked to start from. */
  const reads: (ReadonlyMap<string, number> | undefined)[] = [];
  let watched: EventStore;

  beforeAll(async () => {
    ({ database, store, close } = await openMemoryEngineStore());
    watched = {
      ...store,
      readStreams: (ids, options) => {
        reads.push(options?.fromRevisions);
        return store.readStreams(ids, options);
      },
    };
  });
  afterAll(() => close?.());

  const remembering = () => new DecisionBatch(watched, counter, undefined, { rememberStates: true });
  const fresh = async (stream: string) =>
    (await store.readStream(stream)).reduce((t, e) => t + (e.data as { n: number }).n, 0);

  it('reads from the remembered revision on, and sees what another writer appended meanwhile', async () => {
    const stream = `remembered-${randomUUID()}`;
    const first = remembering();
    await first.decide(stream, { type: 'Add', n: 5 }, metadata());
    await first.decide(stream, { type: 'Add', n: 7 }, metadata());
    await first.flush();
    await executeCommand(store, counter, stream, { type: 'Add', n: 30 }, metadata());
    reads.length = 0;
    const second = remembering();
    expect(await second.state(stream)).toBe(42);
    expect(await fresh(stream)).toBe(42);
    expect(reads).toEqual([new Map([[stream, 1]])]);
    // And it decides against that state, expecting the revision it read.
    expect((await second.decide(stream, { type: 'Add', n: 60 }, metadata())).ok).toBe(false);
    await second.decide(stream, { type: 'Add', n: 8 }, metadata());
    await second.flush();
    expect(await fresh(stream)).toBe(50);
  });

  it('does not trust a state its own rolled-back transaction wrote', async () => {
    const stream = `rolled-back-${randomUUID()}`;
    await executeCommand(store, counter, stream, { type: 'Add', n: 1 }, metadata());
    await database.db
      .transaction()
      .execute(async (tx) => {
        const batch = new DecisionBatch(watched, counter, tx, { rememberStates: true });
        await batch.decide(stream, { type: 'Add', n: 90 }, metadata());
        await batch.flush();
        throw new Error('roll back');
      })
      .catch(() => undefined);
    // Someone else then writes the revision the rolled-back write had taken.
    await executeCommand(store, counter, stream, { type: 'Add', n: 2 }, metadata());
    const after = remembering();
    expect(await after.state(stream)).toBe(3);
    await after.decide(stream, { type: 'Add', n: 4 }, metadata());
    await after.flush();
    expect(await fresh(stream)).toBe(7);
  });

  it('forgets the least recently used state first, and reads a forgotten stream whole', () => {
    const cache = new BoundedMap<string, { state: number; revision: number; eventId: string }>(2);
    cache.set('a', { state: 1, revision: 0, eventId: 'e1' });
    cache.set('b', { state: 2, revision: 0, eventId: 'e2' });
    expect(cache.use('a')?.state).toBe(1);
    cache.set('c', { state: 3, revision: 0, eventId: 'e3' });
    expect(cache.use('b')).toBeUndefined();
    expect(cache.use('a')?.state).toBe(1);
    expect(cache.size).toBe(2);
  });
});
