import { describe, expect, it } from 'vitest';
import type { LogPosition } from '../../domain/shared/event-store.ts';
import { CheckpointWatch } from './checkpoint-watch.ts';
import type { Checkpoint } from './checkpoints.ts';
import { Signal as Broadcast } from './engine.ts';

const at = (n: number): LogPosition => ({ commit: n, prepare: n });
const checkpoint = (name: string, n: number | null): Checkpoint => ({
  name,
  position: n === null ? null : at(n),
  globalPosition: n ?? 0,
  eventsApplied: n ?? 0,
  version: 1,
  generation: 1,
  updatedAt: new Date(0),
});

/** A checkpoint table in memory that counts how often it is read. */
function table(initial: Record<string, number | null>) {
  const positions = { ...initial };
  let reads = 0;
  return {
    positions,
    reads: () => reads,
    read: async () => {
      reads++;
      return Object.entries(positions).map(([name, n]) => checkpoint(name, n));
    },
  };
}

describe('CheckpointWatch (read-your-writes for many waiting requests)', () => {
  it('answers a burst of waiters with one checkpoint read per tick, each as soon as its projections pass it', async () => {
    const checkpoints = table({ runs: 0, goals: 0, feed: 0 });
    const applied = new Broadcast();
    const watch = new CheckpointWatch(checkpoints.read, applied);
    const answers = Array.from({ length: 50 }, (_, i) => watch.reached(at(i + 1), ['runs', 'goals'], 5_000));
    let settled = 0;
    for (const answer of answers) void answer.then(() => settled++);
    await new Promise((r) => setTimeout(r, 60));
    expect(settled).toBe(0);
    const readsWhileWaiting = checkpoints.reads();
    // 50 waiters for 60 ms at a 25 ms tick: a handful of reads, not 50 per tick.
    expect(readsWhileWaiting).toBeLessThanOrEqual(6);

    checkpoints.positions.runs = 25;
    checkpoints.positions.goals = 25;
    applied.wake();
    await Promise.all(answers.slice(0, 25));
    expect(settled).toBe(25);

    checkpoints.positions.runs = 50;
    checkpoints.positions.goals = 50;
    applied.wake();
    expect(await Promise.all(answers)).toEqual(answers.map(() => []));
    // The feed projection was never waited for, so it being far behind held nobody up.
    expect(checkpoints.positions.feed).toBe(0);
  });

  it('answers the projections still behind when the time runs out, and nothing more', async () => {
    const checkpoints = table({ runs: 10, goals: null });
    const watch = new CheckpointWatch(checkpoints.read, new Broadcast());
    expect(await watch.reached(at(5), ['runs', 'goals'], 40)).toEqual(['goals']);
    expect(await watch.reached(at(11), ['runs'], 0)).toEqual(['runs']);
    expect(await watch.reached(at(10), ['runs'], 0)).toEqual([]);
  });

  it('passes a failed checkpoint read to the waiters and keeps working for the next ones', async () => {
    let fail = true;
    const checkpoints = table({ runs: 3 });
    const watch = new CheckpointWatch(async () => {
      if (fail) throw new Error('connection terminated');
      return checkpoints.read();
    }, new Broadcast());
    await expect(watch.reached(at(1), ['runs'], 1_000)).rejects.toThrow('connection terminated');
    fail = false;
    expect(await watch.reached(at(1), ['runs'], 1_000)).toEqual([]);
  });

  it('asks for the projections once per waiter they leave behind, never for one they already passed', async () => {
    const checkpoints = table({ feed: 5 });
    const applied = new Broadcast();
    let asked = 0;
    const watch = new CheckpointWatch(checkpoints.read, applied, () => asked++);
    // Passed already: answered by the first read, nobody hurried.
    expect(await watch.reached(at(3), ['feed'], 5_000)).toEqual([]);
    expect(asked).toBe(0);
    // Two waiters behind: one ask for the read that finds them, none for the reads after it.
    const waiting = [watch.reached(at(7), ['feed'], 5_000), watch.reached(at(8), ['feed'], 5_000)];
    await new Promise((r) => setTimeout(r, 80));
    expect(checkpoints.reads()).toBeGreaterThan(2);
    expect(asked).toBe(1);
    // A third, arriving while they still wait, is asked for on its own.
    const third = watch.reached(at(9), ['feed'], 5_000);
    await new Promise((r) => setTimeout(r, 60));
    expect(asked).toBe(2);
    checkpoints.positions.feed = 9;
    applied.wake();
    expect(await Promise.all([...waiting, third])).toEqual([[], [], []]);
    expect(asked).toBe(2);
  });
});
