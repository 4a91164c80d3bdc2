import { describe, expect, it } from 'vitest';
import type { Database } from '../db/database.ts';
import { ChangeHub } from '../realtime/change-hub.ts';
import { entryBytes, ReadCache } from './read-cache.ts';

/** A LISTEN whose notifications and barriers the test delivers by hand (the change hub follows it). */
function fakeDatabase() {
  let notify: (payload: string) => void = () => {};
  let reconnect: () => void = () => {};
  const barriers: Array<{ resolve: () => void; reject: (error: unknown) => void }> = [];
  const database = {
    readReplica: null,
    async follow(_channel: string, onNotify: (payload: string) => void, options?: { onReconnect?: () => void }) {
      notify = onNotify;
      reconnect = options?.onReconnect ?? (() => {});
      return {
        barrier: () => new Promise<void>((resolve, reject) => barriers.push({ resolve, reject })),
        stop: async () => {},
      };
    },
  } as unknown as Database;
  return {
    database,
    announce: (userId: string, ...topics: string[]) => notify(JSON.stringify([{ userId, topics }])),
    reconnect: () => reconnect(),
    barriers,
  };
}

/** A cache whose barriers pass at once (the in-process case). */
async function openCache(bounds: { maxBytes?: number; maxInvalidations?: number } = {}) {
  const fake = fakeDatabase();
  const hub = new ChangeHub();
  await hub.start(fake.database);
  const cache = new ReadCache({ maxBytes: 1_000_000, ...bounds });
  cache.start(hub);
  const passBarriers = () => {
    for (const barrier of fake.barriers.splice(0)) barrier.resolve();
  };
  const read = async (userId: string, query: string, value: string) => {
    const pending = cache.read({ userId, read: 'r', query, topics: ['goals'] }, async () => ({ value }));
    // The barrier is asked for only on a hit; let it pass whenever it is.
    for (let i = 0; i < 5; i++) {
      await Promise.resolve();
      passBarriers();
    }
    return pending;
  };
  return { cache, fake, read };
}

describe('ReadCache', () => {
  it('serves a group-wide entry until its user or one of the users it names is announced under its topics', async () => {
    const { cache, fake } = await openCache();
    const read = async (value: string) => {
      const pending = cache.read(
        { userId: 'viewer', read: 'r', query: 'g', topics: ['runs', 'groups'], users: ['m1', 'm2'] },
        async () => ({ value }),
      );
      for (let i = 0; i < 5; i++) {
        await Promise.resolve();
        for (const barrier of fake.barriers.splice(0)) barrier.resolve();
      }
      return pending;
    };
    expect(await read('first')).toBe('first');
    fake.announce('m3', 'runs'); // not a member
    fake.announce('m2', 'goals'); // a member, another topic
    expect(await read('second')).toBe('first');
    fake.announce('m2', 'runs');
    expect(await read('third')).toBe('third');
    fake.announce('viewer', 'groups');
    expect(await read('fourth')).toBe('fourth');
    fake.announce('m1', 'groups');
    expect(await read('fifth')).toBe('fifth');
    expect(await read('sixth')).toBe('fifth');
  });

  it('serves a filled entry until its user and topic are announced', async () => {
    const { cache, fake, read } = await openCache();
    expect(await read('u1', 'q', 'first')).toBe('first');
    expect(await read('u1', 'q', 'second')).toBe('first');
    fake.announce('u2', 'goals'); // someone else
    fake.announce('u1', 'runs'); // another topic
    expect(await read('u1', 'q', 'third')).toBe('first');
    fake.announce('u1', 'goals');
    expect(await read('u1', 'q', 'fourth')).toBe('fourth');
    expect(cache.stats).toMatchObject({ hits: 2, misses: 2 });
  });

  it('keeps at most maxBytes of entries, dropping the least recently used', async () => {
    // Entries of one size: room for three and a half, so that dropping down to fifteen sixteenths leaves three.
    const one = entryBytes('u\u0000r\u0000a', 'a')!;
    const { cache, read } = await openCache({ maxBytes: Math.floor(3.5 * one) });
    for (const q of ['a', 'b', 'c']) await read('u', q, q);
    expect(cache.stats).toMatchObject({ entries: 3, bytes: 3 * one });
    expect(await read('u', 'a', 'a2')).toBe('a'); // a is now the most recent
    await read('u', 'd', 'd');
    expect(cache.stats.entries).toBe(3);
    expect(await read('u', 'b', 'b2')).toBe('b2'); // b was the least recent: gone
    expect(await read('u', 'a', 'a3')).toBe('a');
    for (let i = 0; i < 1000; i++) await read(`user${i}`, 'q', 'v');
    expect(cache.stats.bytes).toBeLessThanOrEqual(3.5 * one);
    expect(cache.stats.entries).toBe(3);
  });

  it('weighs an entry by its answer: a large page pushes out many small ones, one larger than the bound is not kept', async () => {
    const small = entryBytes('u\u0000r\u0000s0', 'v')!;
    const { cache, read } = await openCache({ maxBytes: 40 * small });
    for (let i = 0; i < 30; i++) await read('u', `s${i}`, 'v');
    expect(cache.stats.entries).toBe(30);
    const page = 'x'.repeat(25 * small); // a page as large as 25 small answers and more
    await read('u', 'page', page);
    expect(await read('u', 'page', 'refilled')).toBe(page); // held
    expect(cache.stats.bytes).toBeLessThanOrEqual(40 * small);
    expect(cache.stats.entries).toBeLessThan(16); // the oldest small ones made room for it
    expect(await read('u', 's0', 'again')).toBe('again'); // the oldest was dropped
    const huge = 'y'.repeat(41 * small);
    expect(await read('u', 'huge', huge)).toBe(huge);
    expect(await read('u', 'huge', 'read again')).toBe('read again'); // never held: heavier than the whole bound
    expect(cache.stats.bytes).toBeLessThanOrEqual(40 * small);
  });

  it('answers a value JSON cannot write without keeping it', async () => {
    const { cache } = await openCache();
    const key = { userId: 'u', read: 'r', query: 'q', topics: ['goals'] as const };
    expect(await cache.read(key, async () => ({ value: 10n as unknown }))).toBe(10n);
    expect(cache.stats).toMatchObject({ entries: 0, bytes: 0 });
  });

  it('does not keep a fill that an announcement overtook while it was reading', async () => {
    const { fake, read, cache } = await openCache();
    let release: (value: { value: string }) => void = () => {};
    const inFlight = cache.read<string>(
      { userId: 'u', read: 'r', query: 'q', topics: ['goals'] },
      () => new Promise((resolve) => (release = resolve)),
    );
    fake.announce('u', 'goals'); // the batch committed while the rows were being read
    release({ value: 'old rows' });
    expect(await inFlight).toBe('old rows'); // the request itself gets what it read
    expect(await read('u', 'q', 'new rows')).toBe('new rows'); // nobody after it does
  });

  it('forgets everything when the LISTEN connection was lost and is back', async () => {
    const { fake, read } = await openCache();
    await read('u', 'q', 'before');
    fake.reconnect();
    expect(await read('u', 'q', 'after')).toBe('after');
    expect(await read('u', 'q', 'later')).toBe('after');
  });

  it('bounds what it remembers of announcements, staying exact', async () => {
    const { fake, read } = await openCache({ maxInvalidations: 8 });
    await read('u', 'q', 'kept');
    for (let i = 0; i < 20; i++) fake.announce(`other${i}`, 'goals');
    // u's entry was filled before records were forgotten: they might have named u, so it is not served.
    expect(await read('u', 'q', 'refilled')).toBe('refilled');
    expect(await read('u', 'q', 'again')).toBe('refilled');
  });

  it('serves a hit only after a LISTEN round trip that started after the request', async () => {
    const { cache, fake } = await openCache();
    const key = { userId: 'u', read: 'r', query: 'q', topics: ['goals'] as const };
    await cache.read(key, async () => ({ value: 'old' }));
    const first = cache.read(key, async () => ({ value: 'unused' }));
    await Promise.resolve();
    expect(fake.barriers).toHaveLength(1); // a round trip in flight, started for `first`
    const second = cache.read(key, async () => ({ value: 'fresh' }));
    await Promise.resolve();
    // The round trip in flight may have left before `second` arrived: `second` waits for the next one. The
    // announcement that the next round trip delivers makes the entry stale for `second`; `first` was judged by its own.
    fake.barriers.shift()?.resolve();
    expect(await first).toBe('old');
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(fake.barriers).toHaveLength(1);
    fake.announce('u', 'goals');
    fake.barriers.shift()?.resolve();
    expect(await second).toBe('fresh');
  });

  it('reads an entry already stale again without waiting for a LISTEN round trip', async () => {
    const { cache, fake } = await openCache();
    const key = { userId: 'u', read: 'r', query: 'q', topics: ['goals'] as const };
    await cache.read(key, async () => ({ value: 'before the run' }));
    await cache.readPerUser('name', ['m1'], ['profile'], async () => new Map([['m1', 'Mia']]));
    // The runner's own write was announced on its way back: both entries are stale before any barrier.
    fake.announce('u', 'goals');
    fake.announce('m1', 'profile');
    // No barrier is ever resolved here: a read that waited for one would never end.
    expect(await cache.read(key, async () => ({ value: 'after the run' }))).toBe('after the run');
    const names = await cache.readPerUser('name', ['m1'], ['profile'], async () => new Map([['m1', 'Mila']]));
    expect(names).toEqual(new Map([['m1', 'Mila']]));
    expect(fake.barriers).toHaveLength(0);
    expect(cache.stats).toMatchObject({ hits: 0, misses: 2, perUserHits: 0 });
    // The refilled entry is fresh, and a hit on it still waits for its round trip.
    const hit = cache.read(key, async () => ({ value: 'unused' }));
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(fake.barriers).toHaveLength(1);
    fake.barriers.shift()?.resolve();
    expect(await hit).toBe('after the run');
  });

  it('reads the database while the LISTEN connection cannot prove anything', async () => {
    const { cache, fake } = await openCache();
    const key = { userId: 'u', read: 'r', query: 'q', topics: ['goals'] as const };
    await cache.read(key, async () => ({ value: 'cached' }));
    const pending = cache.read(key, async () => ({ value: 'from the database' }));
    await Promise.resolve();
    fake.barriers.shift()?.reject(new Error('Not listening'));
    expect(await pending).toBe('from the database');
  });

  it('serves one request’s reads after one round trip, started at its first hit', async () => {
    const { cache, fake } = await openCache();
    const members = { userId: 'viewer', read: 'members', query: 'g', topics: ['groups'] as const };
    await cache.read({ ...members, users: (ids: string[]) => ids }, async () => ({ value: ['viewer', 'm1'] }));
    await cache.readPerUser('name', ['m1'], ['profile'], async () => new Map([['m1', 'Mia']]));
    const request = cache.forRequest();
    const reads = (async () => {
      const ids = await request.read({ ...members, users: (v: string[]) => v }, async () => ({ value: ['unused'] }));
      return [ids, await request.readPerUser('name', ['m1'], ['profile'], async () => new Map([['m1', 'unused']]))];
    })();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(fake.barriers).toHaveLength(1);
    fake.barriers.shift()?.resolve();
    const [ids, names] = await reads;
    expect(ids).toEqual(['viewer', 'm1']);
    expect(names).toEqual(new Map([['m1', 'Mia']]));
    expect(fake.barriers).toHaveLength(0); // the second read used the request's round trip
  });

  it('judges an entry by the users its own value names, and holds each user’s value apart', async () => {
    const { cache, fake } = await openCache();
    const pass = async <T>(pending: Promise<T>) => {
      for (let i = 0; i < 5; i++) {
        await Promise.resolve();
        for (const barrier of fake.barriers.splice(0)) barrier.resolve();
      }
      return pending;
    };
    const members = (value: string[]) =>
      pass(
        cache.read(
          { userId: 'viewer', read: 'members', query: 'g', topics: ['profile'], users: (v: string[]) => v },
          async () => ({ value }),
        ),
      );
    const names = (value: string) =>
      pass(
        cache.readPerUser(
          'name',
          ['m1', 'm2'],
          ['profile'],
          async (ids) => new Map(ids.map((id) => [id, `${value} ${id}`])),
        ),
      );
    await members(['viewer', 'm1']);
    expect(await members(['stale'])).toEqual(['viewer', 'm1']);
    fake.announce('m2', 'profile'); // not among the entry's members
    expect(await members(['stale'])).toEqual(['viewer', 'm1']);
    fake.announce('m1', 'profile');
    expect(await members(['viewer', 'm1', 'm2'])).toEqual(['viewer', 'm1', 'm2']);

    expect(await names('first')).toEqual(
      new Map([
        ['m1', 'first m1'],
        ['m2', 'first m2'],
      ]),
    );
    fake.announce('m2', 'profile');
    expect(await names('second')).toEqual(
      new Map([
        ['m1', 'first m1'],
        ['m2', 'second m2'],
      ]),
    );
    expect(cache.stats.perUserHits).toBe(1);
  });
});
