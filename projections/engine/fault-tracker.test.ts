import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { LogPosition } from '../../domain/shared/event-store.ts';
import { type FaultPolicy, FaultTracker, retryDelayMs } from './fault-tracker.ts';

const now = new Date('2026-12-05T10:00:00Z');
const at = (i: number): LogPosition => ({ commit: i, prepare: i });

/** One event of a simulated log: refused by the projector every time, or fine after some transient faults. */
type SimEvent = { readonly bad: boolean; readonly transientFaults: number };

/**
 * Drives a tracker the way the runner does over a simulated log: read `batchSize` events after the checkpoint, fail
 * the batch if it holds a refused event or a pending transient fault, otherwise apply it. Returns what happened.
 */
function simulate(log: readonly SimEvent[], policy: FaultPolicy, batchSize: number) {
  const tracker = new FaultTracker(policy);
  const transientLeft = log.map((e) => e.transientFaults);
  const applied: number[] = [];
  const poisoned: { index: number; attempts: number }[] = [];
  const aloneAttempts = new Map<number, number>();
  const delays: number[] = [];
  let checkpoint = 0;
  let steps = 0;
  while (checkpoint < log.length) {
    if (++steps > 100_000) throw new Error('the simulated projection never finished');
    const size = tracker.batchSize(batchSize);
    const batch = Array.from({ length: Math.min(size, log.length - checkpoint) }, (_, i) => checkpoint + i);
    const transient = batch.some((i) => transientLeft[i]! > 0);
    const refused = batch.some((i) => log[i]!.bad);
    if (!transient && !refused) {
      applied.push(...batch);
      checkpoint += batch.length;
      tracker.succeeded(at(batch[batch.length - 1]!));
      continue;
    }
    if (transient) {
      // The database went away during this batch: one fault is used up, whatever the events.
      const first = batch.find((i) => transientLeft[i]! > 0)!;
      transientLeft[first]!--;
    }
    if (!transient && batch.length === 1) aloneAttempts.set(batch[0]!, (aloneAttempts.get(batch[0]!) ?? 0) + 1);
    const decision = tracker.failed(
      { eventIds: batch.map(String), lastPosition: at(batch[batch.length - 1]!) },
      transient,
      now,
    );
    if (decision.kind === 'retry') {
      delays.push(decision.delayMs);
      continue;
    }
    const index = Number(decision.eventId);
    poisoned.push({ index, attempts: decision.attempts });
    checkpoint = index + 1;
    tracker.succeeded(at(index));
  }
  return { applied, poisoned, aloneAttempts, delays };
}

const policyArb = fc.record({
  maxAttempts: fc.integer({ min: 1, max: 6 }),
  firstDelayMs: fc.integer({ min: 0, max: 500 }),
  maxDelayMs: fc.integer({ min: 0, max: 10_000 }),
});

const logArb = fc.array(
  fc.record({
    bad: fc.integer({ min: 0, max: 4 }).map((n) => n === 0),
    transientFaults: fc.oneof(
      { weight: 4, arbitrary: fc.constant(0) },
      { weight: 1, arbitrary: fc.integer({ min: 1, max: 12 }) },
    ),
  }),
  { maxLength: 40 },
);

describe('fault tracker', () => {
  it('applies every good event once, in order, and poisons exactly the refused ones after maxAttempts tries each', () => {
    fc.assert(
      fc.property(logArb, policyArb, fc.integer({ min: 1, max: 10 }), (log, policy, batchSize) => {
        const { applied, poisoned, aloneAttempts } = simulate(log, policy, batchSize);
        const good = log.flatMap((e, i) => (e.bad ? [] : [i]));
        const bad = log.flatMap((e, i) => (e.bad ? [i] : []));
        expect(applied).toEqual(good);
        expect(poisoned.map((p) => p.index)).toEqual(bad);
        for (const p of poisoned) {
          expect(p.attempts).toBe(policy.maxAttempts);
          expect(aloneAttempts.get(p.index)).toBe(policy.maxAttempts);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('never poisons an event for transient faults, however many there are', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 30 }), { minLength: 1, maxLength: 20 }),
        policyArb,
        fc.integer({ min: 1, max: 10 }),
        (faults, policy, batchSize) => {
          const log = faults.map((transientFaults) => ({ bad: false, transientFaults }));
          const { applied, poisoned } = simulate(log, policy, batchSize);
          expect(poisoned).toEqual([]);
          expect(applied).toEqual(log.map((_, i) => i));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('waits between retries no longer than the policy allows, never less than zero, growing with each failure', () => {
    fc.assert(
      fc.property(policyArb, fc.integer({ min: 1, max: 60 }), (policy, failures) => {
        const delay = retryDelayMs(policy, failures);
        expect(delay).toBeGreaterThanOrEqual(0);
        expect(delay).toBeLessThanOrEqual(policy.maxDelayMs);
        expect(retryDelayMs(policy, failures + 1)).toBeGreaterThanOrEqual(delay);
        expect(retryDelayMs(policy, 1)).toBe(Math.min(policy.firstDelayMs, policy.maxDelayMs));
      }),
      { numRuns: 1000 },
    );
  });

  it('reads one event at a time after a refused batch until it is past that batch, then full batches again', () => {
    const tracker = new FaultTracker({ maxAttempts: 2, firstDelayMs: 10, maxDelayMs: 100 });
    expect(tracker.batchSize(50)).toBe(50);
    expect(tracker.failed({ eventIds: ['a', 'b', 'c'], lastPosition: at(3) }, false, now)).toEqual({
      kind: 'retry',
      delayMs: 0,
    });
    expect(tracker.batchSize(50)).toBe(1);
    tracker.succeeded(at(1));
    expect(tracker.failed({ eventIds: ['b'], lastPosition: at(2) }, false, now)).toEqual({
      kind: 'retry',
      delayMs: 10,
    });
    expect(tracker.failed({ eventIds: ['b'], lastPosition: at(2) }, false, now)).toEqual({
      kind: 'poison',
      eventId: 'b',
      attempts: 2,
      firstFailedAt: now,
    });
    tracker.succeeded(at(2));
    expect(tracker.batchSize(50)).toBe(1);
    tracker.succeeded(at(3));
    expect(tracker.batchSize(50)).toBe(50);
  });

  it('blames no event for a failure before any was read: retried like a transient fault', () => {
    const tracker = new FaultTracker({ maxAttempts: 1, firstDelayMs: 10, maxDelayMs: 100 });
    for (let i = 1; i <= 5; i++) {
      const decision = tracker.failed({ eventIds: [], lastPosition: null }, false, now);
      expect(decision).toEqual({ kind: 'retry', delayMs: Math.min(100, 10 * 2 ** (i - 1)) });
    }
  });
});
