import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/*
 * Every in-memory PGlite database of the tests starts from the run's dump of an empty cluster
 * (tests/support/pglite-image.ts): a new cluster runs initdb inside PGlite, 2–3 s each time, and the suite opens one
 * for every test file and engine. A new test that opens `dataDir: 'memory'` on its own still works, only slower; this
 * finds it. Folders on disk (`dataDir` of a CLI test) and PostgreSQL are not concerned.
 */
const ROOT = resolve(import.meta.dirname, '../..');
const DIRS = ['tests', 'app-server', 'projections', 'domain'];

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'node_modules' ? [] : sources(path);
    return name.endsWith('.ts') ? [path] : [];
  });
}

/** An `openDatabase({ … })` call that asks for memory (or names no database at all) without the image. */
function opensBareMemory(source: string): boolean {
  for (const match of source.matchAll(/openDatabase\(\{([^}]*)\}\)/g)) {
    const args = match[1]!;
    const named = /\bdatabaseUrl\s*:|\bdataDir\b/.test(args);
    const memory = /dataDir\s*:\s*'memory'/.test(args);
    if ((memory || !named) && !/\bpgliteImage\b/.test(args)) return true;
  }
  return false;
}

describe('in-memory test databases start from the empty-cluster image', () => {
  it('the rule catches a bare memory database and lets the image through', () => {
    expect(opensBareMemory("await openDatabase({ dataDir: 'memory' });")).toBe(true);
    expect(opensBareMemory('await openDatabase({ poolSize: 2 });')).toBe(true);
    expect(opensBareMemory("openDatabase({ dataDir: 'memory', pgliteImage: emptyClusterImage() })")).toBe(false);
    expect(opensBareMemory('openDatabase({ databaseUrl: scratch.url })')).toBe(false);
    expect(opensBareMemory('openDatabase({ dataDir })')).toBe(false);
  });

  it('no test opens one any other way', () => {
    const offenders = DIRS.flatMap((dir) => sources(join(ROOT, dir)))
      .filter((path) => /\.test\.ts$|\/tests\//.test(path))
      .filter((path) => !path.includes('/tests/lint/') && !path.includes('/tests/bench/'))
      .filter((path) => opensBareMemory(readFileSync(path, 'utf8')))
      .map((path) => relative(ROOT, path));
    expect(offenders).toEqual([]);
  });
});
