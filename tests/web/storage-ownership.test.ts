import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const repo = join(import.meta.dirname, '../..');
const ROOTS = [join(repo, 'web/src'), join(repo, 'native/src')];
const OWNER = 'web/src/lib/storage.ts';
/** The one native module that implements the storage interface on Capacitor Preferences. */
const NATIVE_BACKING = 'native/src/storage.ts';

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return /\.(ts|tsx)$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

const files = ROOTS.flatMap(sources).map((path) => ({ name: relative(repo, path), text: readFileSync(path, 'utf8') }));

describe('client storage has one owner (lib/storage.ts), so no key can skip the per-user rules', () => {
  it('no other module uses localStorage or sessionStorage', () => {
    const offenders = files
      .filter((f) => f.name !== OWNER && /\b(localStorage|sessionStorage)\b/.test(f.text))
      .map((f) => f.name);
    expect(offenders).toEqual([]);
  });

  it('no other module makes a storage key of its own', () => {
    const offenders = files.filter((f) => f.name !== OWNER && /['"`]stridestake\./.test(f.text)).map((f) => f.name);
    expect(offenders).toEqual([]);
  });

  it('only the offline queue opens IndexedDB, and only native/src/storage.ts uses Capacitor Preferences', () => {
    expect(files.filter((f) => /\bopenDB\b|\bindexedDB\.open\b/.test(f.text)).map((f) => f.name)).toEqual([
      'web/src/features/runs/offline/run-queue.ts',
    ]);
    expect(files.filter((f) => /@capacitor\/preferences/.test(f.text)).map((f) => f.name)).toEqual([NATIVE_BACKING]);
  });

  it('the scan sees the app’s sources', () => {
    expect(files.length).toBeGreaterThan(50);
    expect(files.some((f) => f.name === OWNER)).toBe(true);
  });
});
