import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ExpectedVersion,
  type NewEvent,
  StreamOrderConflictError,
  WrongExpectedVersionError,
} from '../../domain/shared/event-store.ts';
import { newEvent, numberedEvents, uniquePrefix } from './support/contract-events.ts';
import { contractTargets, type OpenTarget } from './support/targets.ts';

/*
 * The PostgreSQL store appends many streams with es_append_many (append-many-function.ts): a set-based fast path,
 * and es_append stream by stream for anything unusual. Whichever path a batch takes, it must leave what appending
 * each stream on its own leaves: the same revisions, the same refusals, the same answers to a repeat.
 */
for (const target of contractTargets().filter((t) => t.name !== 'kurrentdb')) {
  describe(`appending many streams at once: ${target.name}`, () => {
    let t: OpenTarget;
    beforeAll(async () => {
      t = await target.open();
    });
    afterAll(() => t?.close());

    it('leaves every stream as appending it alone would, for any mix of new and existing streams', async () => {
      // Each stream: how many events it already has (0: new), what the batch expects and how many it appends.
      const stream = fc.record({
        existing: fc.integer({ min: 0, max: 3 }),
        expect: fc.constantFrom('any', 'exact', 'no_stream', 'stream_exists', 'wrong'),
        count: fc.integer({ min: 1, max: 3 }),
      });
      await fc.assert(
        fc.asyncProperty(fc.array(stream, { minLength: 1, maxLength: 6 }), async (plan) => {
          const prefix = uniquePrefix('set');
          const ids = plan.map((_, i) => `${prefix}-${String.fromCharCode(97 + ((i * 7) % plan.length))}${i}`);
          for (const [i, p] of plan.entries())
            if (p.existing > 0) await t.store.appendToStream(ids[i]!, numberedEvents(p.existing));
          const expected = (p: (typeof plan)[number]): ExpectedVersion =>
            p.expect === 'exact'
              ? p.existing === 0
                ? 'no_stream'
                : p.existing - 1
              : p.expect === 'wrong'
                ? p.existing + 1
                : (p.expect as ExpectedVersion);
          const holds = (p: (typeof plan)[number]) =>
            p.expect === 'any' ||
            p.expect === 'exact' ||
            (p.expect === 'no_stream' && p.existing === 0) ||
            (p.expect === 'stream_exists' && p.existing > 0);
          const appends = plan.map((p, i) => ({
            streamId: ids[i]!,
            events: numberedEvents(p.count, p.existing),
            expectedVersion: expected(p),
          }));
          const outcome = await t.store.appendToStreams(appends).catch((error: unknown) => error);
          if (plan.some((p) => !holds(p))) {
            expect(outcome).toBeInstanceOf(WrongExpectedVersionError);
            for (const [i, p] of plan.entries()) expect(await t.store.readStream(ids[i]!)).toHaveLength(p.existing);
            return;
          }
          expect(outcome).not.toBeInstanceOf(Error);
          const results = outcome as Awaited<ReturnType<typeof t.store.appendToStreams>>;
          expect(results.map((r) => r.streamId)).toEqual(ids);
          for (const [i, p] of plan.entries()) {
            const read = await t.store.readStream(ids[i]!);
            expect(read.map((e) => (e.data as { n: number }).n)).toEqual([...Array(p.existing + p.count).keys()]);
            expect(read.map((e) => e.streamRevision)).toEqual([...Array(p.existing + p.count).keys()]);
            expect(results[i]!.nextExpectedRevision).toBe(p.existing + p.count - 1);
            expect(read.at(-1)!.position).toEqual(results[i]!.position);
          }
          // One transaction: the log lists the batch's events together, each stream in revision order.
          const inLog = (await t.store.readAll()).filter((e) => ids.includes(e.streamId));
          const batch = inLog.slice(-plan.reduce((n, p) => n + p.count, 0));
          expect(new Set(batch.map((e) => e.position.commit)).size).toBe(1);
          for (const id of ids) {
            const revisions = batch.filter((e) => e.streamId === id).map((e) => e.streamRevision);
            expect(revisions).toEqual([...revisions].sort((a, b) => a - b));
          }
        }),
        { numRuns: Number(process.env.APPEND_MANY_RUNS ?? 60) },
      );
    });

    it('answers a batch repeating one stream’s committed append with its original result, and appends the rest', async () => {
      const prefix = uniquePrefix('set-repeat');
      const repeated: NewEvent[] = numberedEvents(2);
      const [first] = await t.store.appendToStreams([
        { streamId: `${prefix}-a`, events: repeated, expectedVersion: 'no_stream' },
      ]);
      const results = await t.store.appendToStreams([
        { streamId: `${prefix}-a`, events: repeated, expectedVersion: 'no_stream' },
        { streamId: `${prefix}-b`, events: [newEvent()], expectedVersion: 'no_stream' },
      ]);
      expect(results[0]).toEqual(first);
      expect(results[1]!.nextExpectedRevision).toBe(0);
      expect(await t.store.readStream(`${prefix}-a`)).toHaveLength(2);
      expect(await t.store.readStream(`${prefix}-b`)).toHaveLength(1);
    });

    // Real concurrency only: PGlite is one session, so its transactions never interleave.
    if (target.name === 'postgres') {
      it('refuses a batch from an older transaction reaching a stream after a newer writer, writing nothing', async () => {
        const prefix = uniquePrefix('set-order');
        const [other, shared, fresh] = [`${prefix}-other`, `${prefix}-shared`, `${prefix}-z-fresh`];
        await t.store.appendToStream(shared, [newEvent('First', {})]);
        let olderHasId!: () => void;
        const olderWrote = new Promise<void>((resolve) => (olderHasId = resolve));
        let newerHasAppended!: () => void;
        const newerAppended = new Promise<void>((resolve) => (newerHasAppended = resolve));
        const older = t.database.db.transaction().execute(async (tx) => {
          await t.store.appendToStream(other, [newEvent('Older', {})], { transaction: tx });
          olderHasId();
          await newerAppended;
          await t.store.appendToStreams(
            [
              { streamId: shared, events: [newEvent('OlderOnShared', {})] },
              { streamId: fresh, events: [newEvent('OlderFresh', {})] },
            ],
            { transaction: tx },
          );
        });
        const newer = t.database.db.transaction().execute(async (tx) => {
          await olderWrote;
          await t.store.appendToStream(shared, [newEvent('Newer', {})], { transaction: tx });
          newerHasAppended();
          await new Promise((resolve) => setTimeout(resolve, 50));
        });
        const [olderOutcome] = await Promise.allSettled([older, newer]);
        expect(olderOutcome.status).toBe('rejected');
        expect((olderOutcome as PromiseRejectedResult).reason).toBeInstanceOf(StreamOrderConflictError);
        expect(await t.store.readStream(other)).toEqual([]);
        expect(await t.store.readStream(fresh)).toEqual([]);
        expect((await t.store.readStream(shared)).map((e) => e.type)).toEqual(['First', 'Newer']);
      });
    }
  });
}
