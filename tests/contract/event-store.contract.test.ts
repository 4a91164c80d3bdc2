import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  comparePositions,
  type EventStore,
  type RecordedEvent,
  StreamOrderConflictError,
  WrongExpectedVersionError,
} from '../../domain/shared/event-store.ts';
import { hasHiddenEvents } from '../../app-server/adapters/event-store/postgres/read-events.ts';
import { newEvent, numberedEvents, uniquePrefix } from './support/contract-events.ts';
import { DeliveryLog, runConcurrentWriters } from './support/concurrent-workload.ts';
import { followLog } from './support/follow-log.ts';
import { contractTargets, type OpenTarget } from './support/targets.ts';

const targets = contractTargets();
console.log(`event-store contract targets: ${targets.map((t) => t.name).join(', ')}`);

const SEEDS = [1, 2, 3];
const WORKLOAD_EVENTS = 20_000;

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => expect.unreachable('expected a rejection'),
    (error: unknown) => error,
  );
}

async function expectWrongVersion(promise: Promise<unknown>, actual: number): Promise<void> {
  const error = await rejection(promise);
  expect(error).toBeInstanceOf(WrongExpectedVersionError);
  expect((error as WrongExpectedVersionError).actual).toBe(actual);
}

const dataOf = (events: readonly RecordedEvent[]) => events.map((e) => e.data);

type Position = RecordedEvent['position'];
const samePosition = (a: Position | null, b: Position | null) =>
  a === b || (a !== null && b !== null && comparePositions(a, b) === 0);

/**
 * Reads until `done`, for up to 10 s. On PostgreSQL what one statement can see is not always a superset of what an
 * earlier one saw: a transaction of another database that ends while a statement looks holds that statement's horizon
 * back (visible-horizon.ts), and a CI server runs other test files' databases beside this one. A read that stays
 * short for 10 s is a real failure.
 */
async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * The log as `from` reads it, read again (eventually) until `done` holds: every read of the log below that expects
 * events its test just appended goes through here, for the reason `eventually` gives.
 */
function logUntil(
  from: Pick<EventStore, 'readAll'>,
  done: (events: RecordedEvent[]) => boolean,
  options: Parameters<EventStore['readAll']>[0] = {},
): Promise<RecordedEvent[]> {
  return eventually(() => from.readAll(options), done);
}

describe.each(targets)('event store contract: $name', (target) => {
  let t: OpenTarget;
  let store: EventStore;

  beforeAll(async () => {
    t = await target.open();
    store = t.store;
  });
  afterAll(async () => {
    await t?.close();
  });

  it('appends and reads a stream forwards, backwards, from a revision and with maxCount', async () => {
    const stream = uniquePrefix('read');
    const result = await store.appendToStream(stream, numberedEvents(5));
    expect(result.nextExpectedRevision).toBe(4);
    const all = await store.readStream(stream);
    expect(dataOf(all)).toEqual([0, 1, 2, 3, 4].map((n) => ({ n })));
    expect(all.map((e) => e.streamRevision)).toEqual([0, 1, 2, 3, 4]);
    expect(all.at(-1)!.position).toEqual(result.position);
    expect(all.at(-1)!.globalPosition).toBe(result.globalPosition);
    expect(dataOf(await store.readStream(stream, { direction: 'backwards' }))).toEqual(
      [4, 3, 2, 1, 0].map((n) => ({ n })),
    );
    expect(dataOf(await store.readStream(stream, { fromRevision: 3 }))).toEqual([{ n: 3 }, { n: 4 }]);
    expect(dataOf(await store.readStream(stream, { fromRevision: 1, maxCount: 2 }))).toEqual([{ n: 1 }, { n: 2 }]);
    const back = await store.readStream(stream, { direction: 'backwards', fromRevision: 2, maxCount: 2 });
    expect(dataOf(back)).toEqual([{ n: 2 }, { n: 1 }]);
    expect(await store.readStream(uniquePrefix('absent'))).toEqual([]);
  });

  it('round-trips data, metadata, positions and recordedAt', async () => {
    const stream = uniquePrefix('meta');
    const event = newEvent('Detailed', { nested: { list: [1, 'two', null], flag: true }, text: 'ünïcødé "q"' });
    const withCause = { ...event, metadata: { ...event.metadata, causationId: 'cmd-1', actorId: null } };
    await store.appendToStream(stream, [withCause]);
    const [read] = await store.readStream(stream);
    expect(read!.type).toBe('Detailed');
    expect(read!.data).toEqual(withCause.data);
    expect(read!.metadata).toEqual(withCause.metadata);
    expect(read!.streamId).toBe(stream);
    expect(Number.isNaN(Date.parse(read!.recordedAt))).toBe(false);
  });

  it('checks every expected-version mode, accepting and refusing', async () => {
    const stream = uniquePrefix('ev');
    await expectWrongVersion(store.appendToStream(stream, [newEvent()], { expectedVersion: 'stream_exists' }), -1);
    await expectWrongVersion(store.appendToStream(stream, [newEvent()], { expectedVersion: 0 }), -1);
    const created = await store.appendToStream(stream, [newEvent()], { expectedVersion: 'no_stream' });
    expect(created.nextExpectedRevision).toBe(0);
    await expectWrongVersion(store.appendToStream(stream, [newEvent()], { expectedVersion: 'no_stream' }), 0);
    expect(
      (await store.appendToStream(stream, [newEvent()], { expectedVersion: 'stream_exists' })).nextExpectedRevision,
    ).toBe(1);
    expect((await store.appendToStream(stream, numberedEvents(2), { expectedVersion: 1 })).nextExpectedRevision).toBe(
      3,
    );
    await expectWrongVersion(store.appendToStream(stream, [newEvent()], { expectedVersion: 1 }), 3);
    await expectWrongVersion(store.appendToStream(stream, [newEvent()], { expectedVersion: 4 }), 3);
    expect((await store.appendToStream(stream, [newEvent()], { expectedVersion: 'any' })).nextExpectedRevision).toBe(4);
    expect((await store.appendToStream(stream, [newEvent()])).nextExpectedRevision).toBe(5);
    expect(await store.readStream(stream)).toHaveLength(6);
  });

  it('lets exactly one of two racing writers with the same expected version win', async () => {
    for (let round = 0; round < 10; round++) {
      const stream = uniquePrefix('race');
      await store.appendToStream(stream, [newEvent()]);
      const outcomes = await Promise.allSettled([
        store.appendToStream(stream, [newEvent('A')], { expectedVersion: 0 }),
        store.appendToStream(stream, [newEvent('B')], { expectedVersion: 0 }),
      ]);
      expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
      const [lost] = outcomes.filter((o) => o.status === 'rejected');
      expect(lost!.reason).toBeInstanceOf(WrongExpectedVersionError);
      expect((lost!.reason as WrongExpectedVersionError).actual).toBe(1);
      expect(await store.readStream(stream)).toHaveLength(2);
    }
  });

  it('appends to many streams at once, each with its own expected version, answering per stream in order', async () => {
    const prefix = uniquePrefix('many');
    const [a, b, c] = [`${prefix}-c`, `${prefix}-a`, `${prefix}-b`];
    await store.appendToStream(b, numberedEvents(2));
    const results = await store.appendToStreams([
      { streamId: a, events: numberedEvents(3), expectedVersion: 'no_stream' },
      { streamId: b, events: numberedEvents(1, 2), expectedVersion: 1 },
      { streamId: c, events: numberedEvents(1) },
    ]);
    expect(results.map((r) => [r.streamId, r.nextExpectedRevision])).toEqual([
      [a, 2],
      [b, 2],
      [c, 0],
    ]);
    const read = await store.readStreams([a, b, c, `${prefix}-absent`]);
    expect([...read.keys()].sort()).toEqual([a, b, c, `${prefix}-absent`].sort());
    expect(dataOf(read.get(a)!)).toEqual([0, 1, 2].map((n) => ({ n })));
    expect(dataOf(read.get(b)!)).toEqual([0, 1, 2].map((n) => ({ n })));
    expect(read.get(b)!.map((e) => e.streamRevision)).toEqual([0, 1, 2]);
    expect(read.get(`${prefix}-absent`)).toEqual([]);
    for (const r of results) expect((await store.readStream(r.streamId)).at(-1)!.position).toEqual(r.position);
    // Reading many streams is reading each one.
    for (const id of [a, b, c]) expect(read.get(id)).toEqual(await store.readStream(id));
  });

  it('reads many streams each from its own revision, as reading each one from it does', async () => {
    const prefix = uniquePrefix('many-from');
    const [a, b, c, whole] = [`${prefix}-a`, `${prefix}-b`, `${prefix}-c`, `${prefix}-whole`];
    await store.appendToStreams([
      { streamId: a, events: numberedEvents(5) },
      { streamId: b, events: numberedEvents(2) },
      { streamId: c, events: numberedEvents(3) },
      { streamId: whole, events: numberedEvents(2) },
    ]);
    // From the middle, from past the end, from 0, and (not in the map) the whole stream; an absent stream is [].
    const fromRevisions = new Map([
      [a, 3],
      [b, 2],
      [c, 0],
      [`${prefix}-absent`, 4],
    ]);
    const ids = [a, b, c, whole, `${prefix}-absent`];
    const read = await store.readStreams(ids, { fromRevisions });
    expect([...read.keys()].sort()).toEqual([...ids].sort());
    expect(read.get(a)!.map((e) => e.streamRevision)).toEqual([3, 4]);
    expect(dataOf(read.get(a)!)).toEqual([3, 4].map((n) => ({ n })));
    expect(read.get(b)).toEqual([]);
    expect(read.get(whole)!.map((e) => e.streamRevision)).toEqual([0, 1]);
    expect(read.get(`${prefix}-absent`)).toEqual([]);
    for (const id of ids) {
      const fromRevision = fromRevisions.get(id);
      expect(read.get(id)).toEqual(await store.readStream(id, fromRevision === undefined ? {} : { fromRevision }));
    }
  });

  it('refuses a multi-stream append whose expected version does not hold, naming the stream', async () => {
    const prefix = uniquePrefix('many-ev');
    const [ok, stale] = [`${prefix}-a`, `${prefix}-b`];
    await store.appendToStream(stale, numberedEvents(2));
    const error = await rejection(
      store.appendToStreams([
        { streamId: ok, events: [newEvent()], expectedVersion: 'no_stream' },
        { streamId: stale, events: [newEvent()], expectedVersion: 0 },
      ]),
    );
    expect(error).toBeInstanceOf(WrongExpectedVersionError);
    expect((error as WrongExpectedVersionError).streamId).toBe(stale);
    expect((error as WrongExpectedVersionError).actual).toBe(1);
    expect(await store.readStream(stale)).toHaveLength(2);
    // All or nothing where the store has transactions (KurrentDB appends stream by stream: see its adapter).
    if (t.transactionalAppends) expect(await store.readStream(ok)).toEqual([]);
  });

  it('answers a repeated multi-stream append with the original results and stores nothing twice', async () => {
    const prefix = uniquePrefix('many-idem');
    const appends = [
      { streamId: `${prefix}-a`, events: numberedEvents(2), expectedVersion: 'no_stream' as const },
      { streamId: `${prefix}-b`, events: numberedEvents(1), expectedVersion: 'no_stream' as const },
    ];
    const first = await store.appendToStreams(appends);
    expect(await store.appendToStreams(appends)).toEqual(first);
    expect(await store.readStream(`${prefix}-a`)).toHaveLength(2);
    expect(await store.readStream(`${prefix}-b`)).toHaveLength(1);
  });

  it('answers a repeated append with the original result and stores nothing twice', async () => {
    const stream = uniquePrefix('idem');
    const events = numberedEvents(3);
    const first = await store.appendToStream(stream, events, { expectedVersion: 'no_stream' });
    await store.appendToStream(stream, [newEvent()]);
    const again = await store.appendToStream(stream, events, { expectedVersion: 'no_stream' });
    expect(again).toEqual(first);
    expect(await store.appendToStream(stream, events)).toEqual(first);
    expect(await store.readStream(stream)).toHaveLength(4);
    await expect(store.appendToStream(stream, [events[1]!, newEvent()])).rejects.toThrow();
    await expect(store.appendToStream(uniquePrefix('other'), [events[0]!])).rejects.toThrow();
    expect(await store.readStream(stream)).toHaveLength(4);
  });

  it('upcasts old event versions on readStream, readAll and subscriptions', async () => {
    const stream = uniquePrefix('up');
    await store.appendToStream(stream, [
      newEvent('Renamed', { name: 'Ada' }, 1),
      newEvent('Renamed', { fullName: 'Bo' }, 2),
    ]);
    const upcasting = t.withUpcasters([
      { eventType: 'Renamed', fromVersion: 2, upcast: (d) => ({ ...(d as object), v3: true }) },
      { eventType: 'Renamed', fromVersion: 1, upcast: (d) => ({ fullName: (d as { name: string }).name }) },
    ]);
    const expected = [
      { fullName: 'Ada', v3: true },
      { fullName: 'Bo', v3: true },
    ];
    const fromStream = await upcasting.readStream(stream);
    expect(dataOf(fromStream)).toEqual(expected);
    expect(fromStream.map((e) => e.metadata.schemaVersion)).toEqual([3, 3]);
    const fromAll = (await logUntil(upcasting, (all) => all.filter((e) => e.streamId === stream).length === 2)).filter(
      (e) => e.streamId === stream,
    );
    expect(dataOf(fromAll)).toEqual(expected);
    const seen: RecordedEvent[] = [];
    const subscription = followLog(t.database.db, upcasting, [
      {
        checkpointName: uniquePrefix('up-sub'),
        handle: async (events) => void seen.push(...events.filter((e) => e.streamId === stream)),
      },
    ]);
    await subscription.caughtUp();
    await subscription.stop();
    expect(dataOf(seen)).toEqual(expected);
    expect(dataOf(await store.readStream(stream))).toEqual([{ name: 'Ada' }, { fullName: 'Bo' }]);
  });

  it('leaves the fields a reader names out of readAll and subscriptions, and nothing else, nowhere else', async () => {
    const stream = uniquePrefix('without');
    const track = [{ latitude: 40.78, longitude: -73.97, timestamp: 1 }];
    await store.appendToStream(stream, [
      newEvent('Ran', { km: 5, positions: track, notes: 'easy' }),
      newEvent('Ran', { km: 3 }),
    ]);
    const mine = (events: readonly RecordedEvent[]) => dataOf(events.filter((e) => e.streamId === stream));
    const without = [{ km: 5, notes: 'easy' }, { km: 3 }];
    const both = (events: RecordedEvent[]) => mine(events).length === 2;
    expect(mine(await logUntil(store, both, { withoutFields: ['positions'] }))).toEqual(without);
    expect(mine(await logUntil(store, both, { withoutFields: ['positions', 'notes'] }))).toEqual([
      { km: 5 },
      { km: 3 },
    ]);
    const seen: RecordedEvent[] = [];
    const subscription = followLog(t.database.db, store, [
      {
        checkpointName: uniquePrefix('without-sub'),
        withoutFields: ['positions'],
        handle: async (events) => void seen.push(...events),
      },
    ]);
    await subscription.caughtUp();
    await subscription.stop();
    expect(mine(seen)).toEqual(without);
    // Only that reader's copy: the log and every other reader still get the whole event.
    expect(dataOf(await store.readStream(stream))).toEqual([{ km: 5, positions: track, notes: 'easy' }, { km: 3 }]);
    expect(mine(await logUntil(store, both))).toEqual([{ km: 5, positions: track, notes: 'easy' }, { km: 3 }]);
  });

  it('reads only the event types a reader names, counting only those against maxCount', async () => {
    const stream = uniquePrefix('types');
    await store.appendToStream(stream, [
      newEvent('Kept', { n: 1 }),
      newEvent('Other', { n: 2 }),
      newEvent('AlsoKept', { n: 3 }),
      newEvent('Other', { n: 4 }),
      newEvent('Kept', { n: 5 }),
    ]);
    const before = (await store.readStream(stream))[0]!.position;
    const all = await logUntil(store, (read) => read.filter((e) => e.streamId === stream).length === 3, {
      eventTypes: ['Kept', 'AlsoKept'],
    });
    expect(dataOf(all.filter((e) => e.streamId === stream))).toEqual([{ n: 1 }, { n: 3 }, { n: 5 }]);
    expect(all.every((e) => e.type === 'Kept' || e.type === 'AlsoKept')).toBe(true);
    const after = await logUntil(store, (read) => read.length === 2, {
      after: before,
      eventTypes: ['Kept', 'AlsoKept'],
      maxCount: 2,
    });
    expect(dataOf(after)).toEqual([{ n: 3 }, { n: 5 }]);
  });

  it('answers a read of the log with the head that same read saw: a short read has every event up to it', async () => {
    const stream = uniquePrefix('to-head');
    await store.appendToStream(stream, [newEvent('Kept', { n: 1 }), newEvent('Other', { n: 2 })]);
    await store.appendToStream(stream, [newEvent('Kept', { n: 3 }), newEvent('Other', { n: 4 })]);
    const [first] = await store.readStream(stream);
    const head = await store.headPosition({ committed: true });
    const toHead = (options: Parameters<typeof store.readAllToHead>[0]) =>
      eventually(
        () => store.readAllToHead(options),
        (read) => samePosition(read.head, head),
      );
    // Types a follower does not handle still count for the head: it moves past them.
    const short = await toHead({ after: first!.position, eventTypes: ['Kept'], withoutFields: ['n'] });
    expect(short.head).toEqual(head);
    expect(short.events.map((e) => [e.type, e.data])).toEqual([['Kept', {}]]);
    // A full batch stops at maxCount; the head is still the log's.
    const full = await toHead({ after: first!.position, maxCount: 2 });
    expect(full.events.map((e) => e.data)).toEqual([{ n: 2 }, { n: 3 }]);
    expect(full.head).toEqual(head);
    // Past the head: nothing, and the same head.
    expect(await toHead({ after: head })).toEqual({ events: [], head });
  });

  it('reads the global log in batches, in position order, up to the head', async () => {
    const prefix = uniquePrefix('all');
    for (let i = 0; i < 10; i++) await store.appendToStream(`${prefix}-${i % 3}`, numberedEvents(1 + (i % 4), i * 10));
    const head = await store.headPosition({ committed: true });
    const everything: RecordedEvent[] = [];
    // Read until the newest committed event. On PostgreSQL one statement may see less than an earlier one (see
    // eventually above), so a batch can come back empty short of it for a moment; the events are there on the next.
    const deadline = Date.now() + 10_000;
    for (let after = null as Position | null; !samePosition(after, head); ) {
      const batch = await store.readAll({ after, maxCount: 7 });
      if (batch.length === 0) {
        expect(Date.now(), 'the log never reached the head read before it').toBeLessThan(deadline);
        await new Promise((resolve) => setTimeout(resolve, 20));
        continue;
      }
      expect(batch.length).toBeLessThanOrEqual(7);
      everything.push(...batch);
      after = batch.at(-1)!.position;
    }
    expect(await store.readAll({ after: head })).toEqual([]);
    const positions = everything.map((e) => e.position);
    for (let i = 1; i < positions.length; i++) {
      const [a, b] = [positions[i - 1]!, positions[i]!];
      expect(a.commit < b.commit || (a.commit === b.commit && a.prepare < b.prepare)).toBe(true);
    }
    expect(everything.at(-1)!.position).toEqual(head);
    expect(everything.filter((e) => e.streamId.startsWith(prefix))).toHaveLength(23);
  });

  it('resumes after a handler failure mid-batch with no effect lost or applied twice', async () => {
    const prefix = uniquePrefix('resume');
    const table = `contract_effects_${prefix.replaceAll('-', '_')}`;
    const { db } = t.database;
    await sql`create table ${sql.table(table)} (event_id text not null, stream_id text not null)`.execute(db);
    const countEffects = async () =>
      (
        await sql<{ total: number; distinct: number }>`
          select count(*)::int as total, count(distinct event_id)::int as distinct from ${sql.table(table)}`.execute(db)
      ).rows[0]!;
    let appended = 0;
    const appendSome = async (count: number) => {
      for (let i = 0; i < count; i++) {
        await store.appendToStream(`${prefix}-${i % 7}`, numberedEvents(1 + (i % 3)));
        appended += 1 + (i % 3);
      }
    };
    /** The events of this test in the log, once the log shows every one appended (logUntil). */
    const inLog = async () =>
      (await logUntil(store, (all) => all.filter((e) => e.streamId.startsWith(prefix)).length >= appended)).filter(
        (e) => e.streamId.startsWith(prefix),
      ).length;
    const subscribe = (failOnBatch: number) => {
      let batches = 0;
      const errors: unknown[] = [];
      const subscription = followLog(t.database.db, store, [
        {
          checkpointName: prefix,
          batchSize: 40,
          onError: (error) => errors.push(error),
          handle: async (events, tx) => {
            const mine = events.filter((e) => e.streamId.startsWith(prefix));
            const half = Math.ceil(mine.length / 2);
            const insert = async (part: readonly RecordedEvent[]) => {
              for (const e of part) {
                await sql`insert into ${sql.table(table)} values (${e.metadata.eventId}, ${e.streamId})`.execute(
                  tx as never,
                );
              }
            };
            await insert(mine.slice(0, half));
            if (mine.length > 1 && ++batches === failOnBatch) throw new Error('handler failed half-way');
            await insert(mine.slice(half));
          },
        },
      ]);
      return { subscription, errors };
    };

    await appendSome(60);
    const first = subscribe(2);
    await first.subscription.caughtUp();
    await first.subscription.stop();
    expect(first.errors).toHaveLength(1);
    const total = await inLog();
    expect(await countEffects()).toEqual({ total, distinct: total });

    // A restarted subscriber resumes from the stored checkpoint, through another half-applied failure.
    await appendSome(60);
    const second = subscribe(1);
    await second.subscription.caughtUp();
    await second.subscription.stop();
    expect(second.errors).toHaveLength(1);
    const after = await inLog();
    expect(after).toBeGreaterThan(total);
    expect(await countEffects()).toEqual({ total: after, distinct: after });
  });

  it.each(SEEDS)(
    'delivers every event exactly once and in stream order to a live subscriber under concurrent writers (seed %i)',
    async (seed) => {
      const prefix = uniquePrefix(`lost-${seed}`);
      const log = new DeliveryLog(prefix);
      const errors: unknown[] = [];
      const subscription = followLog(t.database.db, store, [
        {
          checkpointName: prefix,
          batchSize: 500,
          handle: async (events) => log.record(events),
          onError: (error) => errors.push(error),
        },
      ]);
      const appended = await runConcurrentWriters(store, {
        seed,
        prefix,
        writers: 8,
        events: WORKLOAD_EVENTS,
        streams: 300,
        ...(t.transactionalAppends && { transaction: (work) => t.database.db.transaction().execute(work) }),
      });
      await subscription.caughtUp();
      await subscription.stop();
      expect(appended.size).toBe(WORKLOAD_EVENTS);
      expect(log.check(appended)).toEqual({ missing: 0, duplicated: 0, unordered: [] });
      expect(log.counts.size).toBe(WORKLOAD_EVENTS);
      expect(errors).toEqual([]);
    },
  );

  it('delivers every event exactly once and in stream order to each of several subscribers following together', async () => {
    const prefix = uniquePrefix('together');
    const logs = [new DeliveryLog(prefix), new DeliveryLog(prefix), new DeliveryLog(prefix)];
    const errors: unknown[] = [];
    const subscription = followLog(
      t.database.db,
      store,
      logs.map((log, i) => ({
        checkpointName: `${prefix}-${i}`,
        batchSize: 50 + i * 70,
        handle: async (events: readonly RecordedEvent[]) => log.record(events),
        onError: (error: unknown) => errors.push(error),
      })),
    );
    const appended = await runConcurrentWriters(store, {
      seed: 7,
      prefix,
      writers: 8,
      events: 5_000,
      streams: 100,
      ...(t.transactionalAppends && { transaction: (work) => t.database.db.transaction().execute(work) }),
    });
    await subscription.caughtUp();
    await subscription.stop();
    for (const log of logs) {
      expect(log.check(appended)).toEqual({ missing: 0, duplicated: 0, unordered: [] });
      expect(log.counts.size).toBe(5_000);
    }
    expect(errors).toEqual([]);
  });

  it('retries a failing subscriber of a group on its own, with no effect of any member lost or applied twice, even with a second instance of the group', async () => {
    const prefix = uniquePrefix('together-fail');
    const table = `contract_effects_${prefix.replaceAll('-', '_')}`;
    const { db } = t.database;
    await sql`create table ${sql.table(table)} (member text not null, event_id text not null)`.execute(db);
    const effects = async (member: string) =>
      (
        await sql<{ total: number; distinct: number }>`
          select count(*)::int as total, count(distinct event_id)::int as distinct from ${sql.table(table)}
          where member = ${member}`.execute(db)
      ).rows[0]!;
    const failures = { left: 3 };
    const errors: { member: string; error: unknown }[] = [];
    const group = () =>
      followLog(
        t.database.db,
        store,
        ['steady', 'flaky'].map((member) => ({
          checkpointName: `${prefix}-${member}`,
          batchSize: 25,
          onError: (error: unknown) => errors.push({ member, error }),
          handle: async (events: readonly RecordedEvent[], tx: unknown) => {
            for (const e of events.filter((e) => e.streamId.startsWith(prefix))) {
              await sql`insert into ${sql.table(table)} values (${member}, ${e.metadata.eventId})`.execute(tx as never);
            }
            // Fails after writing part of its effects, three times: the group's transaction and its own retries.
            if (member === 'flaky' && events.length > 1 && failures.left-- > 0) throw new Error('flaky handler');
          },
        })),
      );
    const first = group();
    const second = group();
    let appended = 0;
    for (let i = 0; i < 80; i++) {
      await store.appendToStream(`${prefix}-${i % 9}`, numberedEvents(1 + (i % 3)));
      appended += 1 + (i % 3);
    }
    await Promise.all([first.caughtUp(), second.caughtUp()]);
    await Promise.all([first.stop(), second.stop()]);
    const mine = (all: RecordedEvent[]) => all.filter((e) => e.streamId.startsWith(prefix));
    const total = mine(await logUntil(store, (all) => mine(all).length >= appended)).length;
    expect(await effects('steady')).toEqual({ total, distinct: total });
    expect(await effects('flaky')).toEqual({ total, distinct: total });
    expect(failures.left).toBeLessThan(0);
    // Only the failing member reports: the steady one never failed on its own.
    expect(errors.map((e) => e.member).every((m) => m === 'flaky')).toBe(true);
  });

  // Real concurrency only: PGlite is one session, so its transactions never interleave.
  if (target.name === 'postgres') {
    it('refuses, rather than misorders, an append from an older transaction that reaches a stream after a newer writer', async () => {
      const prefix = uniquePrefix('order');
      const shared = `${prefix}-shared`;
      const other = `${prefix}-other`;
      await store.appendToStream(shared, [newEvent('First', {})]);
      let olderHasId!: () => void;
      const olderWrote = new Promise<void>((resolve) => (olderHasId = resolve));
      let newerHasAppended!: () => void;
      const newerAppended = new Promise<void>((resolve) => (newerHasAppended = resolve));
      // The older transaction gets its id by writing another stream first, then reaches `shared` only after a
      // newer transaction appended there: its event would sort before the newer one's in the log.
      const older = t.database.db.transaction().execute(async (tx) => {
        await store.appendToStream(other, [newEvent('Older', {})], { transaction: tx });
        olderHasId();
        await newerAppended;
        await store.appendToStream(shared, [newEvent('OlderOnShared', {})], { transaction: tx });
      });
      const newer = t.database.db.transaction().execute(async (tx) => {
        await olderWrote;
        await store.appendToStream(shared, [newEvent('Newer', {})], { transaction: tx });
        newerHasAppended();
        await new Promise((resolve) => setTimeout(resolve, 50));
      });
      const [olderOutcome] = await Promise.allSettled([older, newer.then(() => undefined)]);
      expect(olderOutcome.status).toBe('rejected');
      expect((olderOutcome as PromiseRejectedResult).reason).toBeInstanceOf(StreamOrderConflictError);
      // Nothing of the refused transaction was written.
      expect(await store.readStream(other)).toEqual([]);
      // Retried, it is the newest transaction and lands after the others, in stream order in both reads.
      await t.database.db.transaction().execute(async (tx) => {
        await store.appendToStream(other, [newEvent('Older', {})], { transaction: tx });
        await store.appendToStream(shared, [newEvent('OlderOnShared', {})], { transaction: tx });
      });
      expect((await store.readStream(shared)).map((e) => e.type)).toEqual(['First', 'Newer', 'OlderOnShared']);
      const inLog = (await logUntil(store, (all) => all.filter((e) => e.streamId === shared).length === 3)).filter(
        (e) => e.streamId === shared,
      );
      expect(inLog.map((e) => e.streamRevision)).toEqual([0, 1, 2]);
    });
  }

  // Real concurrency only: PGlite is one session, so nothing can be committed behind an open transaction.
  if (target.name === 'postgres') {
    it('hides an event committed behind an older open transaction, and says so to a reader, until it ends', async () => {
      const before = await store.headPosition();
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      let holding!: () => void;
      const holds = new Promise<void>((resolve) => (holding = resolve));
      const older = t.database.db.transaction().execute(async (tx) => {
        await sql`select pg_current_xact_id()`.execute(tx); // an id older than the append's, and still open
        holding();
        await released;
      });
      await holds;
      const streamId = `${uniquePrefix('hidden')}-1`;
      try {
        await store.appendToStream(streamId, [newEvent('BehindAnOpenOne', {})]);
        expect((await store.readAll({ after: before })).filter((e) => e.streamId === streamId)).toEqual([]);
        // Its head is behind the hidden event too: a follower moving to it does not pass the event.
        const toHead = await store.readAllToHead({ after: before });
        expect(toHead.events.filter((e) => e.streamId === streamId)).toEqual([]);
        expect(toHead.head).toEqual(await store.headPosition());
        expect(comparePositions(toHead.head!, (await store.readStream(streamId))[0]!.position)).toBeLessThan(0);
        expect(await hasHiddenEvents(t.database.db, before!)).toBe(true);
      } finally {
        release();
        await older;
      }
      expect(await hasHiddenEvents(t.database.db, before!)).toBe(false);
      const inLog = (
        await logUntil(store, (all) => all.some((e) => e.streamId === streamId), { after: before })
      ).filter((e) => e.streamId === streamId);
      expect(inLog.map((e) => e.type)).toEqual(['BehindAnOpenOne']);
    });
  }

  // Transaction ids are shared by the whole server: only PostgreSQL has other databases.
  if (target.name === 'postgres') {
    it('is not held back by a transaction left open in another database of the server', async () => {
      const elsewhere = new pg.Client({ connectionString: process.env.DATABASE_URL });
      await elsewhere.connect();
      try {
        await elsewhere.query('begin');
        await elsewhere.query('select pg_current_xact_id()'); // it now holds a transaction id, older than ours
        const streamId = `${uniquePrefix('horizon')}-1`;
        await store.appendToStream(streamId, [newEvent('AfterTheirs', {})]);
        // Held back by the transaction left open, the event would stay hidden for the whole 10 s.
        const inLog = await eventually(
          async () => (await store.readAll()).filter((e) => e.streamId === streamId),
          (events) => events.length > 0,
        );
        expect(inLog.map((e) => e.type)).toEqual(['AfterTheirs']);
      } finally {
        await elsewhere.query('rollback');
        await elsewhere.end();
      }
    });
  }

  it('wakes onAppended listeners after an append commits', async () => {
    let woken = 0;
    const listener = store.onAppended(() => woken++);
    await listener.ready;
    await store.appendToStream(uniquePrefix('wake'), [newEvent()]);
    const deadline = Date.now() + 5000;
    while (woken === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
    listener.remove();
    expect(woken).toBeGreaterThan(0);
  });
});
