import { comparePositions, type LogPosition } from '../../domain/shared/event-store.ts';
import type { Checkpoint } from './checkpoints.ts';
import type { Broadcast } from './wake-signal.ts';

interface Waiter {
  readonly position: LogPosition;
  readonly names: readonly string[];
  readonly deadline: number;
  readonly resolve: (behind: string[]) => void;
  readonly reject: (error: unknown) => void;
}

/** Longest pause between two checkpoint reads while someone waits and no local batch wakes the watch. */
const POLL_MS = 25;

/**
 * Answers "have these projections passed my write?" for every waiting request with one checkpoint read per tick,
 * not one per request: under a burst of writes, twenty waiting requests used to poll the checkpoint table twenty
 * times every 25 ms. A read resolves every waiter it satisfies; the rest wait for the next local batch (`applied`)
 * or the next tick. Checkpoints are read from the database, so it works whether the projections run in this process
 * or in a worker.
 */
export class CheckpointWatch {
  readonly #read: () => Promise<Checkpoint[]>;
  readonly #applied: Broadcast;
  readonly #waiters = new Set<Waiter>();
  #polling = false;

  constructor(read: () => Promise<Checkpoint[]>, applied: Broadcast) {
    this.#read = read;
    this.#applied = applied;
  }

  /** Resolves with the names still behind `position` when all are there (empty) or when `timeoutMs` ran out. */
  reached(position: LogPosition, names: readonly string[], timeoutMs: number): Promise<string[]> {
    return new Promise((resolve, reject) => {
      this.#waiters.add({ position, names, deadline: performance.now() + timeoutMs, resolve, reject });
      if (!this.#polling) void this.#poll();
    });
  }

  async #poll(): Promise<void> {
    this.#polling = true;
    try {
      while (this.#waiters.size > 0) {
        // Waiters that arrive while this read is in flight are judged by it too: their write committed before
        // they waited, so a checkpoint that covers it is real; one that does not is read again next tick.
        let checkpoints: Checkpoint[];
        try {
          checkpoints = await this.#read();
        } catch (error) {
          for (const waiter of this.#drain()) waiter.reject(error);
          continue;
        }
        const now = performance.now();
        let nearest = Number.POSITIVE_INFINITY;
        for (const waiter of [...this.#waiters]) {
          const behind = waiter.names.filter((name) => {
            const checkpoint = checkpoints.find((c) => c.name === name);
            return !checkpoint?.position || comparePositions(checkpoint.position, waiter.position) < 0;
          });
          if (behind.length === 0 || waiter.deadline <= now) {
            this.#waiters.delete(waiter);
            waiter.resolve(behind);
          } else {
            nearest = Math.min(nearest, waiter.deadline - now);
          }
        }
        if (this.#waiters.size > 0) await this.#applied.wait(Math.max(1, Math.min(POLL_MS, nearest)));
      }
    } finally {
      this.#polling = false;
    }
  }

  #drain(): Waiter[] {
    const all = [...this.#waiters];
    this.#waiters.clear();
    return all;
  }
}
