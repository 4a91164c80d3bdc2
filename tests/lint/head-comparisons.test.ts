import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/*
 * A test that asserts "nothing was appended" (or "the engine reached the head") by comparing log heads must compare
 * the newest committed event, `headPosition({ committed: true })`. The bare `headPosition()` is the head a read can
 * see now, and on PostgreSQL one statement may see less than an earlier one: a transaction of another database that
 * ends while the statement looks holds its horizon back (visible-horizon.ts). With other test files busy on the same
 * server, a second bare read came back lower than the first and the contract suite failed with nothing wrong. The
 * event-store contract suite is exempt: the visible head is what it tests.
 */
const TESTS = resolve(import.meta.dirname, '..');
const ROOT = resolve(TESTS, '..');
const EXEMPT = new Set(['tests/contract/event-store.contract.test.ts', 'tests/lint/head-comparisons.test.ts']);

/** `expect(await x.headPosition()).toEqual(…)` or `….toEqual(await x.headPosition())`, bare. */
const BARE_HEAD_COMPARED = [
  /expect\(\s*await [\w.]+\.headPosition\(\)\s*\)\s*\.\s*to(?:Strict)?Equal\(/,
  /\.to(?:Strict)?Equal\(\s*await [\w.]+\.headPosition\(\)\s*\)/,
];

function testSources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'node_modules' ? [] : testSources(path);
    return name.endsWith('.ts') ? [path] : [];
  });
}

const comparesBareHeads = (source: string) => BARE_HEAD_COMPARED.some((pattern) => pattern.test(source));

describe('tests compare log heads by the newest committed event', () => {
  it('the rule catches both forms and lets the committed one through', () => {
    expect(comparesBareHeads('expect(await rt.store.headPosition()).toEqual(head);')).toBe(true);
    expect(comparesBareHeads('expect(result.position).toEqual(await store.headPosition());')).toBe(true);
    expect(comparesBareHeads('expect(await rt.store.headPosition({ committed: true })).toEqual(head);')).toBe(false);
  });

  it('no test file compares a bare headPosition()', () => {
    const offenders = testSources(TESTS)
      .map((path) => relative(ROOT, path))
      .filter((path) => !EXEMPT.has(path) && comparesBareHeads(readFileSync(join(ROOT, path), 'utf8')));
    expect(offenders).toEqual([]);
  });
});
