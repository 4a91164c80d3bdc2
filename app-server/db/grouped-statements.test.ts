import { describe, expect, it } from 'vitest';
import { GroupedStatements } from './grouped-statements.ts';

describe('GroupedStatements', () => {
  it('sends a lone call at once, and the calls made meanwhile together in the next statement, each with its answer', async () => {
    const sent: number[][] = [];
    const squares = new GroupedStatements<number, number>(async (inputs) => {
      sent.push([...inputs]);
      await new Promise((resolve) => setTimeout(resolve, 5));
      return inputs.map((n) => n * n);
    });
    const answers = await Promise.all([1, 2, 3, 4, 5, 6, 7, 8].map((n) => squares.ask(n)));
    expect(answers).toEqual([1, 4, 9, 16, 25, 36, 49, 64]);
    expect(sent).toEqual([[1], [2, 3, 4, 5, 6, 7, 8]]);
    expect(await squares.ask(9)).toBe(81);
    expect(sent.at(-1)).toEqual([9]);
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
    const carried = [flaky.ask('b'), flaky.ask('bad')].map((p) => p.catch((error: Error) => error.message));
    expect(await first).toBe('A');
    expect(await Promise.all(carried)).toEqual(['refused', 'refused']);
    expect(await flaky.ask('c')).toBe('C');
    expect(statements).toBe(3);
  });
});
