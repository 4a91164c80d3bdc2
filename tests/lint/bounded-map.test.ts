import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/*
 * Every in-memory cache of the server is bounded by one mechanism, app-server/bounded-map.ts: verified tokens, live
 * sessions, cached reads and remembered stream states each had their own copy of "drop the Map's first key when
 * full", with small differences in when the bound was checked. A new cache should use BoundedMap, not a fifth copy.
 * The read cache's record of invalidations kept a sixth (by `entries()`), which, dropping one entry per fresh
 * iterator, walked every entry V8 had left deleted in the Map's table: 22 µs a call at 50,000 entries, 2.3 s of a
 * 100,000-goal settlement. BoundedMap drops its oldest in one walk.
 */
const ROOT = resolve(import.meta.dirname, '../..');
const HOME = 'app-server/bounded-map.ts';
const EVICTS_FIRST_KEY = /\.(keys|entries)\(\)\.next\(\)\.value/;

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return name.endsWith('.ts') && !name.endsWith('.test.ts') ? [path] : [];
  });
}

describe('in-memory caches are bounded by BoundedMap', () => {
  it('the rule finds the hand-written eviction', () => {
    expect(EVICTS_FIRST_KEY.test('this.#entries.delete(this.#entries.keys().next().value as string);')).toBe(true);
    expect(EVICTS_FIRST_KEY.test('const [oldest, tick] = this.#invalidated.entries().next().value;')).toBe(true);
  });

  it('no server source but bounded-map.ts evicts a Map by its first key', () => {
    const offenders = ['app-server', 'projections', 'domain']
      .flatMap((dir) => sources(join(ROOT, dir)))
      .map((path) => relative(ROOT, path))
      .filter((file) => file !== HOME && EVICTS_FIRST_KEY.test(readFileSync(join(ROOT, file), 'utf8')));
    expect(offenders).toEqual([]);
  });
});

/*
 * The other way a cache grows without bound: a Map or Set that lives as long as the process (a class's field, a
 * module's constant) and is filled as it runs. The personal key vault remembered each user's data key in a bare Map,
 * dropped only when that user was asked for again after its minute: every runner whose run a process ever sealed or
 * read stayed in memory. Each such collection made empty is listed here with what bounds it; a new one fails until it
 * is a BoundedMap or says here why it cannot grow. (Collections filled at once from a list, like a set of allowed
 * values, are fixed and not listed; neither are a factory's closures, which this rule cannot tell from a call's.)
 */
const FILLED_AS_IT_RUNS =
  /^(?:export\s+)?(?:const|let)\s+(\w+)\s*(?::[^=\n]+)?=\s*new\s+(?:Map|Set)\b(?:<.*>)?\(\)|#(\w+)\s*(?::[^=\n]+)?=\s*new\s+(?:Map|Set)\b(?:<.*>)?\(\)/gm;

/** Each long-lived collection made empty, by file and name, with what keeps it small. */
const BOUNDED_BY: Record<string, string> = {
  'app-server/bounded-map.ts #entries': 'the bound itself',
  'app-server/http/routes/groups-stats.ts weeks': 'one per time zone in use, emptied at 1,000',
  'app-server/realtime/change-hub.ts #listeners': "one per user with a stream open, deleted with the user's last",
  'app-server/realtime/change-hub.ts #watchers': 'one per open watcher, deleted when it ends',
  'app-server/adapters/event-store/postgres/listen-fan-out.ts #listeners': 'one per engine or waiter, removed by it',
  'app-server/adapters/event-store/kurrentdb/kurrent-wake.ts #listeners': 'one per engine or waiter, removed by it',
  'app-server/commands/decision-batch.ts #streams': 'one batch of a process step; the batch lives for that step',
  'projections/engine/checkpoint-watch.ts #waiters': 'one per read-your-writes wait, removed when it ends',
  'projections/engine/engine.ts #waiters': "the engine's own loop and drains, removed when woken",
  'projections/change-announcements.ts #byUser': "one append's announcements, sent at its commit",
  'projections/feed/feed-batch.ts #dirty': 'one batch of the feed projector',
  'domain/shared/settlement.ts settlesAt': 'weeks × zones, emptied at 10,000',
  'domain/shared/week.ts knownWeeks': 'weeks × zones, emptied at 4,096',
  'domain/gamification/streaks.ts NO_PAUSES': 'never filled: the empty set of paused weeks',
};

/** `file name` of each Map or Set a source makes empty and keeps for the life of the process. */
function longLivedCollections(file: string, text: string): string[] {
  return [...text.matchAll(FILLED_AS_IT_RUNS)].map((m) => `${file} ${m[1] ?? `#${m[2]}`}`);
}

describe('long-lived Maps and Sets are bounded', () => {
  it('the rule finds a field or module constant filled as it runs, not a fixed set or a local', () => {
    const vaultBefore = '  readonly #cache = new Map<string, { box: SecretBox; until: number }>();';
    expect(longLivedCollections('f.ts', vaultBefore)).toEqual(['f.ts #cache']);
    expect(longLivedCollections('f.ts', '  readonly #listeners = new Set<() => void>();')).toEqual(['f.ts #listeners']);
    expect(longLivedCollections('f.ts', 'const weeks = new Map<string, WeekRange>();')).toEqual(['f.ts weeks']);
    expect(longLivedCollections('f.ts', "const WEB = new Set(['http:', 'https:']);")).toEqual([]);
    expect(longLivedCollections('f.ts', '  const seen = new Map<string, number>();')).toEqual([]);
  });

  it('every one in the server is a BoundedMap or says what bounds it', () => {
    const found = ['app-server', 'projections', 'domain']
      .flatMap((dir) => sources(join(ROOT, dir)))
      .flatMap((path) => longLivedCollections(relative(ROOT, path), readFileSync(path, 'utf8')));
    expect(found.filter((name) => !(name in BOUNDED_BY))).toEqual([]);
    // A listed one that went away is taken off the list, so the list stays true.
    expect(Object.keys(BOUNDED_BY).filter((name) => !found.includes(name))).toEqual([]);
  });
});
