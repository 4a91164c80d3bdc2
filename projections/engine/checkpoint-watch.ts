import { comparePositions, type LogPosition } from '../../domain/shared/event-store.ts';
import type { Checkpoint } from './checkpoints.ts';
import type { Signal } from './engine.ts';

type Position = Pick<Checkpoint, 'name' | 'position'>;

interface Waiter {
  readonly position: LogPosition;
  readonly names: readonly string[];
  readonly deadline: number;
  readonly resolve: (behind: string[]) => void;
  readonly reject: (error: unknown) => void;
  /** Whether `onBehind` was told of this waiter already. */
  told?: boolean;
}

/** Longest pause between two checkpoint reads while someone waits and no local batch wakes the watch. */
const POLL_MS = 25;

/**
 * Answers "have these processors passed my write?" for every waiter with one checkpoint read per tick, not one per
 * waiter (twenty waiting requests used to poll the table twenty times every 25 ms). Those a read does not satisfy
 * wait for the next local batch (`applied`) or tick. The runner reads the checkpoint table (its projections may run
 * in a worker); an engine, where it left its processors.
 */
export class CheckpointWatch {
  readonly #read: () => Promise<Position[]>;
  readonly #applied: Signal;
  readonly #onBehind: () => void;
  readonly #waiters = new Set<Waiter>();
  #polling = false;

  /** `onBehind` is called once per read that finds new waiters behind, to hurry whoever applies the events. */
  constructor(read: () => Promise<Position[]>, applied: Signal, onBehind: () => void = () => {}) {
    this.#read = read;
    this.#applied = applied;
    this.#onBehind = onBehind;
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
    while (this.#waiters.size > 0) {
      // Waiters that arrive while this read is in flight are judged by it too: their write committed before they
      // waited, so a checkpoint that covers it is real; one that does not is read again next tick.
      const checkpoints = await this.#read().catch((error: unknown) => {
        for (const waiter of this.#waiters) waiter.reject(error);
        this.#waiters.clear();
        return [];
      });
      const now = performance.now();
      let nearest = Number.POSITIVE_INFINITY;
      let untold = false;
      for (const waiter of this.#waiters) {
        const behind = waiter.names.filter((name) => {
          const checkpoint = checkpoints.find((c) => c.name === name);
          return !checkpoint?.position || comparePositions(checkpoint.position, waiter.position) < 0;
        });
        if (behind.length === 0 || waiter.deadline <= now) {
          this.#waiters.delete(waiter);
          waiter.resolve(behind);
        } else {
          nearest = Math.min(nearest, waiter.deadline - now);
          untold ||= !waiter.told;
          waiter.told = true;
        }
      }
      if (untold) this.#onBehind();
      if (this.#waiters.size > 0) await this.#applied.wait(Math.max(1, Math.min(POLL_MS, nearest)));
    }
    this.#polling = false;
  }
}
