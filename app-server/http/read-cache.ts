import { BoundedMap } from '../bounded-map.ts';
import type { ChangeMessage } from '../../projections/change-announcements.ts';
import type { ChangeTopic } from '../../projections/engine/projector.ts';
import type { Database } from '../db/database.ts';
import type { ChangeHub } from '../realtime/change-hub.ts';
import { FreshRead, freshnessMark, requestMark } from '../auth/fresh-read.ts';
import type { RequestFreshness } from '../realtime/request-freshness.ts';

/**
 * Exact cached answers for the hot reads (GET /goals/current, /runs, /feed, /groups/{id}/challenges), invalidated by the read models' own
 * change announcements (projections/change-announcements.ts: a NOTIFY per batch, in the batch's transaction,
 * naming each user and topic whose rows it changed).
 *
 * Why it never serves an answer older than anything acknowledged before the request, on any instance:
 *
 * 1. Invalidation. A counter `#tick` grows by one per announcement heard; `#invalidated` keeps, per (user, topic), the
 *    tick of the last one. An entry remembers the tick read *before* its rows were queried (`filledAt`) and is fresh
 *    while no topic it depends on was announced after that: `invalidatedAt(user, topic) <= filledAt`. An announcement
 *    is heard only after its batch committed, so a fill that read the tick after hearing it queried after the commit
 *    and saw the rows; a fill that read the tick before is refused by the comparison, even if it is still in flight.
 * 2. Nothing acknowledged is still unheard. Before a hit, `barrier()` makes a round trip on this instance's LISTEN
 *    connection (the change hub's) that starts after the request arrived (one serves every request waiting for it). A
 *    write route answers after the read models reached its position, i.e. after the batch that applied it committed
 *    its rows, its checkpoint and its NOTIFY together; that commit signalled every listener, and PostgreSQL sends a
 *    listener's pending notifications before the end of its next statement (database.ts `follow`). So when the
 *    barrier resolves, the announcement of every batch committed before the request is in `#invalidated`, whichever
 *    instance or worker ran it, and freshness is judged after it.
 * 3. Lost announcements. While the LISTEN connection is down the barrier fails and every read goes to the database;
 *    when it is back, everything filled before is forgotten (`#floor`), because what was sent meanwhile is gone.
 *
 * What it relies on: every change to the rows a cached read depends on is announced to that read's user, or to one of
 * the further users it names (a group's members), under one of the topics it names (the projectors' `announce`), and the rows come from the primary (no replica: a lagging
 * replica could hand a fill rows older than an announcement already heard; `createReadCache` refuses one).
 * Authorization is not cached: the session check runs on every request before any of this.
 */
export class ReadCache implements CacheReads {
  /** Least recently used out first: a hit makes an entry the newest. Bounded by the entries' size (entryBytes). */
  readonly #entries: BoundedMap<string, Entry>;
  /** Tick of the last announcement per `user topic`; bounded, the oldest forgotten into `#floor`. */
  readonly #invalidated: BoundedMap<string, number>;
  #tick = 0;
  /** Entries filled before this tick are stale (a reconnect, or invalidation records forgotten). */
  #floor = 0;
  #hub: ChangeHub | null = null;
  #unwatch: (() => void) | null = null;
  /** The hub's barrier, shared: one in flight may have left before a caller arrived, who then waits for the next. */
  readonly #barrier = new FreshRead(() =>
    this.#hub ? this.#hub.barrier() : Promise.reject(new Error('ReadCache is not started')),
  );
  #hits = 0;
  #misses = 0;
  #perUserHits = 0;

  /** The runtime's shared fresh read (its LISTEN round trip is the barrier), or none: then a barrier of its own. */
  readonly #freshness: RequestFreshness | null;

  /**
   * `maxBytes`: what the entries may hold in all, as entryBytes counts it. `maxInvalidations`: the (user, topic) pairs
   * whose last announcement is remembered (READ_CACHE_INVALIDATIONS).
   */
  constructor(options: { maxBytes: number; maxInvalidations?: number; freshness?: RequestFreshness | null }) {
    this.#freshness = options.freshness ?? null;
    const maxInvalidations = options.maxInvalidations ?? READ_CACHE_INVALIDATIONS;
    for (const [name, bound] of [
      ['maxBytes', options.maxBytes],
      ['maxInvalidations', maxInvalidations],
    ] as const)
      if (!Number.isInteger(bound) || bound < 1) throw new Error(`ReadCache: ${name} must be a positive integer`);
    this.#entries = new BoundedMap<string, Entry>(options.maxBytes, undefined, (entry) => entry.bytes);
    // Forgetting the oldest record raises the floor past it, so what it guarded stays stale.
    this.#invalidated = new BoundedMap(maxInvalidations, (_id, tick) => {
      this.#floor = Math.max(this.#floor, tick);
    });
  }

  /**
   * Hears the announcements through this instance's change hub (its LISTEN on the change channel, shared with the
   * realtime streams); entries are served only while the hub is listening.
   */
  start(hub: ChangeHub): void {
    if (this.#hub) return;
    this.#hub = hub;
    this.#unwatch = hub.watch({ messages: (messages) => this.invalidate(messages), lost: () => this.forgetAll() });
  }

  stop(): void {
    this.#unwatch?.();
    this.#unwatch = null;
    this.#hub = null;
    this.forgetAll();
  }

  /**
   * The answer of `load` for this user, read and query, from the cache when exact. `topics`: the announcements that
   * change its rows. `validUntil`: for rows whose choice depends on the clock (the current goal), the instant they may
   * change without any event; the caller passes its `now` and the cache serves an entry only between the `now` it was
   * filled at and that instant. `users`: further users whose `topics` the rows depend on (a group's members, for a
   * group-wide read); the entry is stale once any of them, or `userId`, is announced under one of the topics.
   */
  read<T>(key: ReadKey<T>, load: () => Promise<{ value: T; validUntil?: number }>): Promise<T> {
    return this.#read(() => this.#passedBarrier(), key, load);
  }

  /**
   * The reads of one request, sharing one barrier: started at the first read that needs it (after the request
   * arrived, which is all exactness asks of it), then reused, so a request reading several entries makes one round
   * trip on the LISTEN connection, not one per entry.
   */
  forRequest(): CacheReads {
    let barrier: Promise<boolean> | null = null;
    const passed = () => (barrier ??= this.#passedBarrier());
    return {
      read: (key, load) => this.#read(passed, key, load),
      readPerUser: (read, userIds, topics, load) => this.#readPerUser(passed, read, userIds, topics, load),
    };
  }

  /**
   * One value per user (a display name), each its own entry, fresh while that user is not announced under `topics`:
   * the rules of `read`, one barrier for all of them. Those not held, or stale, are loaded together by `load`; an id
   * it has no value for is answered null (and held as such: ids are never reused).
   */
  readPerUser<T>(
    read: string,
    userIds: readonly string[],
    topics: readonly ChangeTopic[],
    load: (userIds: readonly string[]) => Promise<ReadonlyMap<string, T>>,
  ): Promise<Map<string, T | null>> {
    return this.#readPerUser(() => this.#passedBarrier(), read, userIds, topics, load);
  }

  /** Whether a LISTEN round trip begun after the current request arrived has passed (false: it could not). */
  #passedBarrier(): Promise<boolean> {
    return this.#passedSince(requestMark());
  }

  #passedSince(mark: number): Promise<boolean> {
    if (!this.#hub) return Promise.resolve(false);
    if (this.#freshness)
      return this.#freshness.since(mark).then(
        (state) => state.heard,
        () => false,
      );
    return this.#barrier.since(mark).then(
      () => true,
      () => false,
    );
  }

  async #read<T>(
    passedBarrier: () => Promise<boolean>,
    key: ReadKey<T>,
    load: () => Promise<{ value: T; validUntil?: number }>,
  ): Promise<T> {
    const id = entryId(key);
    const found = this.#entries.get(id);
    const now = key.now ?? 0;
    // An entry already stale stays stale (announcements only add up), so it is read again without the round trip:
    // the usual read after one's own write, whose announcement was heard on its way back (the runner's goal after a
    // run), costs the barrier nothing.
    const users = found ? usersOf(key, found.value as T) : undefined;
    if (
      found &&
      this.#hub?.listening &&
      found.validFrom <= now &&
      now < found.validUntil &&
      this.#fresh(found, key.userId, key.topics, users)
    ) {
      // Judged again after the barrier: announcements it delivered may have made the entry stale.
      if ((await passedBarrier()) && this.#fresh(found, key.userId, key.topics, users)) {
        this.#hits++;
        this.#entries.use(id);
        return found.value as T;
      }
    }
    this.#misses++;
    const filledAt = this.#tick;
    const { value, validUntil } = await load();
    this.#keep(key, value, filledAt, validUntil);
    return value;
  }

  /**
   * For rows a route reads outside `read`, that a later `read` of `key` would read the same (a saved run's answer
   * reads its runner's current goal, which the app asks for next): call before the rows are queried, then `keep`
   * holds each value exactly as a miss of `read` would have, fresh only while nothing its key depends on is announced
   * after this call. Call it after `barrier()` where the write's own announcement must be heard first, or the entry
   * is stale when that announcement arrives.
   */
  beginFill(): { keep<T>(key: ReadKey<T>, value: T, validUntil?: number): void } {
    const filledAt = this.#tick;
    return { keep: (key, value, validUntil) => this.#keep(key, value, filledAt, validUntil) };
  }

  /** Holds `value` as `key`'s entry, read after tick `filledAt`, unless an announcement since made it stale. */
  #keep<T>(key: ReadKey<T>, value: T, filledAt: number, validUntil: number | undefined): void {
    const entry = {
      value,
      filledAt,
      validFrom: key.now ?? 0,
      validUntil: validUntil ?? Number.POSITIVE_INFINITY,
    };
    this.#hold(entryId(key), entry, key.userId, key.topics, usersOf(key, value));
  }

  /**
   * Holds `filled` as the entry `id`, weighed (entryBytes), while this instance is listening and nothing it depends on
   * was announced since it was filled.
   */
  #hold(id: string, filled: Filled, userId: string, topics: readonly ChangeTopic[], users?: readonly string[]): void {
    if (!this.#hub?.listening || !this.#fresh(filled, userId, topics, users)) return;
    const bytes = entryBytes(id, filled.value);
    if (bytes !== null) this.#entries.set(id, { ...filled, bytes });
  }

  async #readPerUser<T>(
    passedBarrier: () => Promise<boolean>,
    read: string,
    userIds: readonly string[],
    topics: readonly ChangeTopic[],
    load: (userIds: readonly string[]) => Promise<ReadonlyMap<string, T>>,
  ): Promise<Map<string, T | null>> {
    const id = (userId: string) => `${userId}\u0000${read}\u0000`;
    const values = new Map<string, T | null>();
    // Only entries fresh now can be fresh after the barrier: with none, no round trip (see #read).
    const held = userIds.flatMap((userId) => {
      const entry = this.#entries.get(id(userId));
      return entry && this.#fresh(entry, userId, topics) ? [{ userId, entry }] : [];
    });
    if (held.length > 0 && this.#hub?.listening && (await passedBarrier()))
      for (const { userId, entry } of held)
        if (this.#fresh(entry, userId, topics)) values.set(userId, entry.value as T | null);
    this.#perUserHits += values.size;
    const missing = userIds.filter((userId) => !values.has(userId));
    if (missing.length === 0) return values;
    const filledAt = this.#tick;
    const loaded = await load(missing);
    for (const userId of missing) {
      const entry = { value: loaded.get(userId) ?? null, filledAt, validFrom: 0, validUntil: Infinity };
      values.set(userId, entry.value as T | null);
      this.#hold(id(userId), entry, userId, topics);
    }
    return values;
  }

  /** Marks the announced users' topics changed; entries filled before are stale from now on. */
  invalidate(messages: readonly ChangeMessage[]): void {
    for (const { userId, topics } of messages) {
      const tick = ++this.#tick;
      for (const topic of topics) {
        const id = `${userId} ${topic}`;
        this.#invalidated.set(id, tick);
      }
    }
  }

  /** After lost announcements: nothing filled so far may be served. */
  forgetAll(): void {
    this.#floor = ++this.#tick;
    this.#entries.clear();
    this.#invalidated.clear();
  }

  /**
   * Entries held, their size (entryBytes) and hits/misses so far (`read`'s; `perUserHits`: values `readPerUser`
   * served), for tests and the bench.
   */
  get stats(): { entries: number; bytes: number; hits: number; misses: number; perUserHits: number } {
    return {
      entries: this.#entries.size,
      bytes: this.#entries.weight,
      hits: this.#hits,
      misses: this.#misses,
      perUserHits: this.#perUserHits,
    };
  }

  /** A LISTEN round trip that started after this call (shared with every caller waiting for the same one). */
  async barrier(): Promise<void> {
    if (!(await this.#passedSince(freshnessMark()))) throw new Error('No LISTEN round trip could pass');
  }

  /** Whether nothing `entry` depends on was announced since it was filled: `userId`'s and `users`' `topics`. */
  #fresh(entry: Filled, userId: string, topics: readonly ChangeTopic[], users: readonly string[] = []): boolean {
    if (entry.filledAt < this.#floor) return false;
    if (!this.#untouched(entry, userId, topics)) return false;
    for (const other of users) if (!this.#untouched(entry, other, topics)) return false;
    return true;
  }

  #untouched(entry: Filled, userId: string, topics: readonly ChangeTopic[]): boolean {
    for (const topic of topics) {
      const at = this.#invalidated.get(`${userId} ${topic}`);
      if (at !== undefined && at > entry.filledAt) return false;
    }
    return true;
  }
}

/**
 * What a cached read is: its user, name and query (the entry's key), the topics that change its rows, the `now` it is
 * read at (see `read`), and further users whose topics it depends on, known up front or from the value itself (a
 * group's members, read by the entry).
 */
export interface ReadKey<T> {
  readonly userId: string;
  readonly read: string;
  readonly query: string;
  readonly topics: readonly ChangeTopic[];
  readonly users?: readonly string[] | ((value: T) => readonly string[]);
  readonly now?: number;
}

/** The cache's reads (`ReadCache` itself, or one request's scope of it: `forRequest`). */
export interface CacheReads {
  read<T>(key: ReadKey<T>, load: () => Promise<{ value: T; validUntil?: number }>): Promise<T>;
  readPerUser<T>(
    read: string,
    userIds: readonly string[],
    topics: readonly ChangeTopic[],
    load: (userIds: readonly string[]) => Promise<ReadonlyMap<string, T>>,
  ): Promise<Map<string, T | null>>;
}

function entryId(key: Pick<ReadKey<unknown>, 'userId' | 'read' | 'query'>): string {
  return `${key.userId}\u0000${key.read}\u0000${key.query}`;
}

function usersOf<T>(key: ReadKey<T>, value: T): readonly string[] | undefined {
  return typeof key.users === 'function' ? key.users(value) : key.users;
}

/** What a fill read, and when: enough to judge its freshness. */
type Filled = Omit<Entry, 'bytes'>;

interface Entry {
  readonly value: unknown;
  /** What the entry counts against the cache's bound (entryBytes), fixed when it is filled. */
  readonly bytes: number;
  /** `#tick` read before the rows were queried. */
  readonly filledAt: number;
  /** The caller's `now` when filled: a clock set back (tests' manual clocks) may choose other rows. */
  readonly validFrom: number;
  /** Epoch ms past which the rows may differ without an announcement (Infinity: never). */
  readonly validUntil: number;
}

/**
 * Default bound on the entries' size, as entryBytes counts it. An entry is a goal's rows (≈1 KB), a page of 20 runs or
 * cards with their reactions (≈10–20 KB), a display name (a few dozen bytes). It was 5,000 entries, whatever their
 * size: up to a hundred megabytes of pages, which as objects on the heap weigh several times their JSON, and every
 * full collection marked them while every request in flight waited (docs/PERFORMANCE.md). 32 MB holds the working
 * set of a thousand active runners; a user whose entry was dropped is read from the database again, so the bound costs
 * hits, never exactness.
 */
export const READ_CACHE_BYTES = 32 * 2 ** 20;

/** Default bound on the (user, topic) pairs whose last announcement is remembered; the oldest raise the floor. */
export const READ_CACHE_INVALIDATIONS = 20_000;

/**
 * The size an entry counts against the bound: its value's JSON length (taken once, when it is filled, and only for
 * a value the cache keeps) and its key, plus ENTRY_OVERHEAD_BYTES for the entry's record and the Map's slot, so that
 * tens of thousands of tiny entries (display names) are bounded too. An estimate of the heap it holds, not a
 * measure: what matters is that a page weighs ten times a goal. Null for a value JSON cannot write, which is not kept.
 */
export function entryBytes(id: string, value: unknown): number | null {
  try {
    return ENTRY_OVERHEAD_BYTES + id.length + (JSON.stringify(value)?.length ?? 0);
  } catch {
    // Not JSON (a cycle, a BigInt): no answer is, so none is cached rather than the read failing.
    return null;
  }
}

const ENTRY_OVERHEAD_BYTES = 200;

/**
 * This instance's read cache, started, or null where it could not be exact: with a streaming replica the reads may
 * lag behind announcements already heard (see above), so they go uncached.
 */
export function createReadCache(
  database: Database,
  hub: ChangeHub,
  options: { maxBytes?: number; freshness?: RequestFreshness } = {},
): ReadCache | null {
  if (database.readReplica) return null;
  const cache = new ReadCache({
    maxBytes: options.maxBytes ?? READ_CACHE_BYTES,
    freshness: options.freshness ?? null,
  });
  cache.start(hub);
  return cache;
}

/** `cache.read(key, load)`, or `load` alone without a cache. */
export async function cachedRead<T>(
  cache: CacheReads | null | undefined,
  key: ReadKey<T>,
  load: () => Promise<{ value: T; validUntil?: number }>,
): Promise<T> {
  if (!cache) return (await load()).value;
  return cache.read(key, load);
}
