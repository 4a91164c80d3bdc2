import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { NEEDS_POSTGRES, NEEDS_REPLICA } from '../support/needs-server.ts';

const REPO = resolve(import.meta.dirname, '../..');

function testFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'node_modules' ? [] : testFiles(path);
    return name.endsWith('.test.ts') ? [relative(REPO, path)] : [];
  });
}

/** A file whose suites all run over a list that is empty without a server (`describe.each(postgres|replicas)`). */
function onlyServerSuites(source: string): boolean {
  const suites = source.match(/^describe(\.each\([^)]*\))?\(/gm) ?? [];
  return suites.length > 0 && suites.every((s) => /describe\.each\((postgres|replicas)\)/.test(s));
}

describe('test files that need a PostgreSQL server', () => {
  it('are exactly the files listed in tests/support/needs-server.ts (so npm test without one leaves them out)', () => {
    const found = testFiles(join(REPO, 'tests')).filter((f) => onlyServerSuites(readFileSync(join(REPO, f), 'utf8')));
    expect(found.sort()).toEqual([...NEEDS_POSTGRES, ...NEEDS_REPLICA].sort());
    for (const file of [...NEEDS_POSTGRES, ...NEEDS_REPLICA]) expect(existsSync(join(REPO, file))).toBe(true);
  });
});
