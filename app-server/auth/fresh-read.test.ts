import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FreshRead, freshnessMark, markRequests, requestMark } from './fresh-read.ts';

/** A read whose completion the test controls; its value is the step at which it began. */
function controlledReads() {
  let step = 0;
  const pending: { resolve: (value: number) => void; reject: (error: Error) => void; began: number }[] = [];
  let inFlight = 0;
  let mostInFlight = 0;
  const read = () =>
    new Promise<number>((resolve, reject) => {
      const began = step;
      inFlight++;
      mostInFlight = Math.max(mostInFlight, inFlight);
      pending.push({
        resolve: (v) => {
          inFlight--;
          resolve(v);
        },
        reject: (e) => {
          inFlight--;
          reject(e);
        },
        began,
      });
    });
  return {
    read,
    pending,
    tick: () => ++step,
    get step() {
      return step;
    },
    get mostInFlight() {
      return mostInFlight;
    },
  };
}

const flush = () => new Promise((r) => setTimeout(r, 0));

describe('FreshRead', () => {
  it('shares one read among callers that arrived before it began', async () => {
    const reads = controlledReads();
    const fresh = new FreshRead(reads.read);
    const first = fresh.get();
    reads.tick();
    // Both arrive while the first read is in flight: they wait for a second one, and share it.
    const second = fresh.get();
    const third = fresh.get();
    expect(reads.pending).toHaveLength(1);
    reads.pending[0]!.resolve(reads.pending[0]!.began);
    await flush();
    expect(reads.pending).toHaveLength(2);
    reads.pending[1]!.resolve(reads.pending[1]!.began);
    expect(await first).toBe(0);
    expect(await second).toBe(1);
    expect(await third).toBe(1);
  });

  it('rejects the callers of a failed read, and the next caller reads again', async () => {
    const reads = controlledReads();
    const fresh = new FreshRead(reads.read);
    const failing = fresh.get();
    reads.pending[0]!.reject(new Error('connection lost'));
    await expect(failing).rejects.toThrow('connection lost');
    const next = fresh.get();
    reads.pending[1]!.resolve(7);
    expect(await next).toBe(7);
  });

  it('answers every caller with a read that began after its call or its mark, one read in flight at most', async () => {
    const action = fc.oneof(
      fc.constant({ kind: 'call' as const }),
      fc.constant({ kind: 'finish' as const }),
      fc.constant({ kind: 'fail' as const }),
      fc.constant({ kind: 'mark' as const }),
      fc.record({ kind: fc.constant('since' as const), pick: fc.nat() }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(action, { maxLength: 60 }), async (script) => {
        const reads = controlledReads();
        const fresh = new FreshRead(reads.read);
        const answers: { calledAt: number; answer: Promise<number | 'failed'> }[] = [];
        // A mark taken at a step: a caller asking since it needs a read begun at that step or later.
        const marks: { mark: number; step: number }[] = [];
        let finished = 0;
        for (const step of script) {
          reads.tick();
          if (step.kind === 'call') {
            answers.push({ calledAt: reads.step, answer: fresh.get().catch(() => 'failed' as const) });
          } else if (step.kind === 'mark') {
            marks.push({ mark: freshnessMark(), step: reads.step });
          } else if (step.kind === 'since') {
            const { mark, step: markedAt } = marks[step.pick % Math.max(1, marks.length)] ?? {
              mark: freshnessMark(),
              step: reads.step,
            };
            answers.push({ calledAt: markedAt, answer: fresh.since(mark).catch(() => 'failed' as const) });
          } else if (finished < reads.pending.length) {
            const read = reads.pending[finished++]!;
            if (step.kind === 'finish') read.resolve(read.began);
            else read.reject(new Error('read failed'));
          }
          await flush();
        }
        // Let every read still pending end, so every caller gets an answer.
        while (finished < reads.pending.length) {
          const read = reads.pending[finished++]!;
          read.resolve(read.began);
          await flush();
        }
        for (const { calledAt, answer } of answers) {
          const value = await answer;
          if (value !== 'failed') expect(value).toBeGreaterThanOrEqual(calledAt);
        }
        expect(reads.mostInFlight).toBeLessThanOrEqual(1);
      }),
      { numRuns: Number(process.env.FRESH_READ_RUNS ?? 300) },
    );
  });

  it('serves a request’s later questions from the read begun after it arrived, and a later request from a new one', async () => {
    const reads = controlledReads();
    const fresh = new FreshRead(reads.read);
    const request = (ask: () => Promise<number>) => markRequests(ask);
    const first = request(async () => {
      const sessionCheck = fresh.since(requestMark());
      reads.pending[0]!.resolve(41);
      await sessionCheck;
      // The cached read's barrier, asked after the session check: the same round trip answers it.
      return fresh.since(requestMark());
    });
    expect(await first).toBe(41);
    expect(reads.pending).toHaveLength(1);
    // A request arriving after that read began needs a read of its own.
    const second = request(() => fresh.since(requestMark()));
    await flush();
    expect(reads.pending).toHaveLength(2);
    reads.pending[1]!.resolve(42);
    expect(await second).toBe(42);
  });
});
