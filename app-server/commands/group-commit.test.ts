import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { GroupCommit, type Settled } from './group-commit.ts';

/*
 * GroupCommit against what a request must get whatever arrives beside it: its own answer or its own refusal, exactly
 * once; never a group larger than the bound; a group that fails as a whole sent again member by member. Requests are
 * numbers: a negative one is refused (its own refusal), and `together` fails as a whole when a group holds a "poison"
 * (a multiple of 7), as a transaction two members raced in would.
 */

const answerOf = (n: number) => n * 10;
const refusalOf = (n: number) => new Error(`refused ${n}`);

function recorder(maxGroup: number) {
  const groups: number[][] = [];
  const alone: number[] = [];
  const pause = () => new Promise((resolve) => setTimeout(resolve, 0));
  const commits = new GroupCommit<number, number>({
    together: async (inputs) => {
      groups.push([...inputs]);
      await pause();
      if (inputs.some((n) => n !== 0 && n % 7 === 0)) throw new Error('the group failed');
      return inputs.map(
        (n): Settled<number> => (n < 0 ? { ok: false, error: refusalOf(n) } : { ok: true, value: answerOf(n) }),
      );
    },
    alone: async (n) => {
      alone.push(n);
      await pause();
      if (n < 0) throw refusalOf(n);
      return answerOf(n);
    },
    maxGroup,
  });
  return { commits, groups, alone };
}

/** Each submit's outcome: its value, or its refusal's message. */
const outcome = (promise: Promise<number>) =>
  promise.then(
    (value) => ({ value }),
    (error: Error) => ({ refused: error.message }),
  );

const expected = (n: number) => (n < 0 ? { refused: refusalOf(n).message } : { value: answerOf(n) });

describe('GroupCommit', () => {
  it('sends a request made alone at once, on its own', async () => {
    const { commits, groups, alone } = recorder(8);
    expect(await commits.submit(3)).toBe(30);
    expect(groups).toEqual([]);
    expect(alone).toEqual([3]);
  });

  it('sends the requests made while one is on its way together, each answered its own', async () => {
    const { commits, groups, alone } = recorder(8);
    const first = commits.submit(1);
    const rest = [2, -3, 4].map((n) => outcome(commits.submit(n)));
    expect(await first).toBe(10);
    expect(await Promise.all(rest)).toEqual([{ value: 20 }, { refused: 'refused -3' }, { value: 40 }]);
    expect(alone).toEqual([1]);
    expect(groups).toEqual([[2, -3, 4]]);
  });

  it('sends every member of a group that failed as a whole again on its own', async () => {
    const { commits, groups, alone } = recorder(8);
    const first = commits.submit(1);
    const rest = [2, 14, -5].map((n) => outcome(commits.submit(n)));
    await first;
    expect(await Promise.all(rest)).toEqual([{ value: 20 }, { value: 140 }, { refused: 'refused -5' }]);
    expect(groups).toEqual([[2, 14, -5]]);
    expect(alone).toEqual([1, 2, 14, -5]);
  });

  it('answers every request exactly once, as alone would, in groups never above the bound', async () => {
    await fc.assert(
      fc.asyncProperty(
        // Waves of requests: each wave is submitted at once, after the previous wave's first answer came back.
        fc.array(fc.array(fc.integer({ min: -20, max: 40 }), { minLength: 1, maxLength: 12 }), {
          minLength: 1,
          maxLength: 6,
        }),
        fc.integer({ min: 1, max: 5 }),
        async (waves, maxGroup) => {
          const { commits, groups, alone } = recorder(maxGroup);
          const all: { n: number; result: Promise<unknown> }[] = [];
          for (const wave of waves) {
            const sent = wave.map((n) => ({ n, result: outcome(commits.submit(n)) }));
            all.push(...sent);
            await Promise.race(sent.map((s) => s.result));
          }
          for (const { n, result } of all) expect(await result).toEqual(expected(n));
          for (const group of groups) expect(group.length).toBeLessThanOrEqual(maxGroup);
          for (const group of groups) expect(group.length).toBeGreaterThan(1);
          // Every request went exactly once through a group that committed or once alone (a failed group's members
          // went alone after it).
          const committed = groups.filter((g) => !g.some((n) => n !== 0 && n % 7 === 0)).flat();
          expect([...committed, ...alone].sort((a, b) => a - b)).toEqual(all.map((s) => s.n).sort((a, b) => a - b));
        },
      ),
      { numRuns: 300 },
    );
  });
});
