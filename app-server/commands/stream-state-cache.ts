import { BoundedMap } from '../bounded-map.ts';

/**
 * Folded states of streams a process decides on again and again (a stake is read when its goal closes, again when
 * its capture is queued, worked and answered), kept in memory with the revision they include and that revision's
 * event id. A later load reads only from that revision on: the first event read must be the one remembered (same
 * revision, same event id), else the entry is dropped and the stream read whole. So an entry can never stand for
 * events that are not there: a state remembered from a transaction that then rolled back, or from another database
 * with the same stream ids (tests run many runtimes in one process), fails that check and is read again.
 *
 * Only for states that hold no personal field (app-server/privacy/personal-data-policy.ts): a remembered state is not
 * shredded by an erasure. Remembered today: goals, stakes, XP ledgers, badge collections, accounts and goal indexes
 * (whose WeekPaused events carry a reason the index's state leaves out: domain/goal/week-pauses.ts). Bounded: the
 * least recently used entry goes first.
 */
export interface RememberedState<State> {
  readonly state: State;
  readonly revision: number;
  readonly eventId: string;
}

/** Remembered states of one kind of stream, least recently used out first. */
export type StreamStateCache<State> = BoundedMap<string, RememberedState<State>>;

/** How many streams of one kind a process remembers per store: 50,000 stakes are some tens of MB. */
export const STREAM_STATE_CAPACITY = 50_000;

const caches = new WeakMap<object, WeakMap<object, StreamStateCache<unknown>>>();

/**
 * The cache of one kind of stream's states read through `store`: one per store and kind (the decider, or whatever
 * object stands for how the state is built, such as a snapshot codec), so two runtimes in one process never share
 * one, and the states of two kinds of stream never mix. `capacity` counts only when the cache is made (the first call).
 */
export function streamStateCache<State>(
  store: object,
  kind: object,
  capacity = STREAM_STATE_CAPACITY,
): StreamStateCache<State> {
  let byKind = caches.get(store);
  if (!byKind) {
    byKind = new WeakMap();
    caches.set(store, byKind);
  }
  let cache = byKind.get(kind);
  if (!cache) {
    cache = new BoundedMap(capacity);
    byKind.set(kind, cache);
  }
  return cache as StreamStateCache<State>;
}
