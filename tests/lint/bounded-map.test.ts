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
