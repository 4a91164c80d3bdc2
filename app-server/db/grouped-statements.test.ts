import { describe, expect, it } from 'vitest';
import { GroupedStatements } from './grouped-statements.ts';

/** A GroupedStatements that squares its inputs, each statement waiting for `hold` (when given) before it answers. */
function squaring(hold?: Promise<void>) {
  const sent: number[][] = [];
  const squares = new GroupedStatements<number, number>(async (inputs) => {
    sent.push([...inputs]);
    await (hold ?? new Promise((resolve) => setTimeout(resolve, 5)));
    return inputs.map((n) => n * n);
  });
  return { sent, squares };
}

describe('GroupedStatements', () => {
  it('sends the calls of one turn together, those made while it is on its way in the next statement, each with its answer', async () => {
    const held = Promise.withResolvers<void>();
    const { sent, squares } = squaring(held.promise);
    const first = [1, 2, 3, 4].map((n) => squares.ask(n));
    // Nothing is sent within the turn that asked: the calls made in it go together.
    expect(sent).toEqual([]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(sent).toEqual([[1, 2, 3, 4]]);
    const meanwhile = [5, 6, 7, 8].map((n) => squares.ask(n));
    held.resolve();
    expect(await Promise.all([...first, ...meanwhile])).toEqual([1, 4, 9, 16, 25, 36, 49, 64]);
    expect(sent).toEqual([
      [1, 2, 3, 4],
      [5, 6, 7, 8],
    ]);
    expect(await squares.ask(9)).toBe(81);
    expect(sent.at(-1)).toEqual([9]);
  });

  it('sends callers woken by one event in one statement, however many steps each takes before it asks', async () => {
    const { sent, squares } = squaring();
    const woken = Promise.withResolvers<void>();
    // The runs of one group commit, answered at once, each reaching its answer's read after steps of its own.
    const callers = [0, 1, 2, 3, 4, 5, 6, 7].map(async (n) => {
      await woken.promise;
      for (let step = 0; step < n; step++) await Promise.resolve();
      return squares.ask(n);
    });
    woken.resolve();
    expect(await Promise.all(callers)).toEqual([0, 1, 4, 9, 16, 25, 36, 49]);
    expect(sent).toEqual([[0, 1, 2, 3, 4, 5, 6, 7]]);
  });

  it('fails every call a failed statement carried, and only those', async () => {
    let statements = 0;
    const flaky = new GroupedStatements<string, string>(async (inputs) => {
      statements++;
      await new Promise((resolve) => setTimeout(resolve, 5));
      if (inputs.includes('bad')) throw new Error('refused');
      return inputs.map((s) => s.toUpperCase());
    });
    const first = flaky.ask('a');
    await new Promise((resolve) => setImmediate(resolve));
    const carried = [flaky.ask('b'), flaky.ask('bad')].map((p) => p.catch((error: Error) => error.message));
    expect(await first).toBe('A');
    expect(await Promise.all(carried)).toEqual(['refused', 'refused']);
    expect(await flaky.ask('c')).toBe('C');
    expect(statements).toBe(3);
  });
});
