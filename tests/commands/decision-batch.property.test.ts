import fc from 'fast-check';
import { left, right } from 'fp-ts/lib/Either.js';
import type { Transaction } from 'kysely';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { DecisionBatch } from '../../app-server/commands/decision-batch.ts';
import { DomainRefusal } from '../../app-server/commands/domain-refusal.ts';
import type { CommandMetadata } from '../../app-server/commands/event-metadata.ts';
import { executeCommand } from '../../app-server/commands/execute-command.ts';
import { defineDecider, domainError } from '../../domain/shared/decider.ts';
import {
  type EventStore,
  type ExpectedVersion,
  type NewEvent,
  type RecordedEvent,
  WrongExpectedVersionError,
} from '../../domain/shared/event-store.ts';

/*
 * DecisionBatch decides many streams in memory and appends them in one statement (the stake settlement uses it).
 * Whatever the commands, their order and how they fall on streams, it must store exactly what deciding them one at a
 * time with executeCommand stores (the same events on the same streams, the same refusals), and a batch read before
 * another writer appended must write nothing.
 */

type Cmd = { type: 'Add'; n: number } | { type: 'Reset' };
type Ev = { type: 'Added'; data: { n: number } } | { type: 'WasReset'; data: Record<string, never> };
const eventSchema = z.union([
  z.object({ type: z.literal('Added'), data: z.object({ n: z.number() }) }),
  z.object({ type: z.literal('WasReset'), data: z.object({}) }),
]) as unknown as z.ZodType<Ev>;

/** A counter that refuses to pass 10 and refuses a reset of nothing: order matters, refusals happen. */
const counter = defineDecider<Cmd, Ev, number>({
  initialState: 0,
  evolve: (total, e) => (e.type === 'Added' ? total + e.data.n : 0),
  decide(cmd, total) {
    if (cmd.type === 'Reset')
      return total === 0 ? left(domainError('conflict', 'nothing', '')) : right([{ type: 'WasReset', data: {} }]);
    if (total + cmd.n > 10) return left(domainError('conflict', 'too_much', ''));
    return right(cmd.n === 0 ? [] : [{ type: 'Added', data: { n: cmd.n } }]);
  },
  eventSchema,
});

/** The part of the event-store port the batch and executeCommand use, in memory, appends all or nothing. */
function memoryStore() {
  const streams = new Map<string, RecordedEvent[]>();
  let position = 0;
  const check = (id: string, expected: ExpectedVersion) => {
    const actual = (streams.get(id)?.length ?? 0) - 1;
    const holds =
      expected === 'any' ||
      (expected === 'no_stream' && actual < 0) ||
      (expected === 'stream_exists' && actual >= 0) ||
      expected === actual;
    if (!holds) throw new WrongExpectedVersionError(id, expected, actual);
  };
  const write = (id: string, events: readonly NewEvent[]) => {
    const stream = streams.get(id) ?? [];
    streams.set(id, stream);
    for (const e of events) {
      position++;
      stream.push({
        ...e,
        streamId: id,
        streamRevision: stream.length,
        position: { commit: position, prepare: position },
        globalPosition: position,
        recordedAt: '',
      });
    }
    const at = { commit: position, prepare: position };
    return { nextExpectedRevision: stream.length - 1, position: at, globalPosition: position };
  };
  const store = {
    async readStream(id: string) {
      return [...(streams.get(id) ?? [])];
    },
    async readStreams(ids: readonly string[]) {
      return new Map(ids.map((id) => [id, [...(streams.get(id) ?? [])]]));
    },
    async appendToStream(id: string, events: readonly NewEvent[], options: { expectedVersion?: ExpectedVersion } = {}) {
      check(id, options.expectedVersion ?? 'any');
      return write(id, events);
    },
    async appendToStreams(
      appends: readonly { streamId: string; events: readonly NewEvent[]; expectedVersion?: ExpectedVersion }[],
    ) {
      for (const a of appends) check(a.streamId, a.expectedVersion ?? 'any');
      return appends.map((a) => ({ streamId: a.streamId, ...write(a.streamId, a.events) }));
    },
  };
  const contents = () =>
    Object.fromEntries([...streams].sort().map(([id, events]) => [id, events.map((e) => [e.type, e.data])]));
  return { store: store as unknown as EventStore<Transaction<object>>, contents };
}

const metadata = (): CommandMetadata => {
  let n = 0;
  return { actorId: null, correlationId: 'c', now: new Date(0), newEventId: () => `id-${n++}` };
};

const STREAMS = ['s-a', 's-b', 's-c', 's-d'];
const command: fc.Arbitrary<Cmd> = fc.oneof(
  fc.record({ type: fc.constant('Add' as const), n: fc.integer({ min: 0, max: 6 }) }),
  fc.constant({ type: 'Reset' as const }),
);
const work = fc.array(fc.tuple(fc.constantFrom(...STREAMS), command), { maxLength: 30 });
const history = fc.array(fc.tuple(fc.constantFrom(...STREAMS), fc.integer({ min: 1, max: 4 })), { maxLength: 8 });
const NUM_RUNS = Number(process.env.FC_NUM_RUNS ?? 300);

async function seeded(past: readonly (readonly [string, number])[]) {
  const memory = memoryStore();
  for (const [id, n] of past) {
    await memory.store.appendToStream(id, [{ type: 'Added', data: { n }, metadata: metadata() as never }]);
  }
  return memory;
}

describe('DecisionBatch', () => {
  it('stores what deciding the commands one at a time stores, with the same refusals', async () => {
    await fc.assert(
      fc.asyncProperty(history, work, async (past, commands) => {
        const alone = await seeded(past);
        const together = await seeded(past);
        const refusedAlone: string[] = [];
        for (const [id, cmd] of commands) {
          try {
            await executeCommand(alone.store, counter, id, cmd, metadata());
          } catch (error) {
            if (!(error instanceof DomainRefusal)) throw error;
            refusedAlone.push(`${id}:${error.reason.code}`);
          }
        }
        const batch = new DecisionBatch(together.store, counter);
        await batch.load(commands.map(([id]) => id));
        const refusedTogether: string[] = [];
        for (const [id, cmd] of commands) {
          const decided = await batch.decide(id, cmd, metadata());
          if (!decided.ok) refusedTogether.push(`${id}:${decided.refusal.code}`);
        }
        await batch.flush();
        expect(refusedTogether).toEqual(refusedAlone);
        expect(together.contents()).toEqual(alone.contents());
        for (const id of STREAMS) expect(await batch.state(id)).toBe(await stateOf(alone.store, id));
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it('writes nothing when another writer appended to one of its streams after it read', async () => {
    await fc.assert(
      fc.asyncProperty(history, work, fc.constantFrom(...STREAMS), async (past, commands, raced) => {
        const memory = await seeded(past);
        const batch = new DecisionBatch(memory.store, counter);
        await batch.load(STREAMS);
        for (const [id, cmd] of commands) await batch.decide(id, cmd, metadata());
        const before = memory.contents();
        const decided = batch.pendingStreams;
        await memory.store.appendToStream(raced, [{ type: 'WasReset', data: {}, metadata: metadata() as never }]);
        const after = memory.contents();
        if (!decided.includes(raced)) return;
        await expect(batch.flush()).rejects.toBeInstanceOf(WrongExpectedVersionError);
        expect(memory.contents()).toEqual(after);
        expect(after).not.toEqual(before);
      }),
      { numRuns: NUM_RUNS },
    );
  });
});

async function stateOf(store: EventStore<Transaction<object>>, id: string): Promise<number> {
  return (await store.readStream(id)).reduce((s, e) => counter.evolve(s, e as unknown as Ev), counter.initialState);
}
