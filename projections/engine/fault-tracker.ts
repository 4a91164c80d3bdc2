import { type LogPosition, comparePositions } from '../../domain/shared/event-store.ts';

/**
 * What a projection does after a batch fails, decided from the failures so far (no I/O, no clock: both come in).
 *
 * - A transient database fault (projections/transient-error.ts) is retried with growing delays for as long as it lasts and
 *   never poisons anything: the events are fine, the database is away.
 * - A refusal of a batch of several events first narrows down: the same events are retried one at a time, so the
 *   good events before the bad one still apply and the bad one is known by its id.
 * - A refusal of a single event is retried `maxAttempts` times with growing delays (it may be a race with a
 *   concurrent schema change or a fix being deployed), then the event is given up on: recorded as poisoned and
 *   passed, so later events, other users and other projections go on.
 * - A failure before any event was read (the log itself could not be read) has no event to blame: it is retried like
 *   a transient fault.
 */
export interface FaultPolicy {
  /** Failed attempts at one event before it is poisoned (at least 1). */
  readonly maxAttempts: number;
  /** Delay after the first failure; doubles after each further one. */
  readonly firstDelayMs: number;
  /** Longest delay between two attempts. */
  readonly maxDelayMs: number;
}

/**
 * Four attempts within about 0.35 s: a refusal is almost always deterministic, and writes whose answer reads this
 * projection wait for it (at most 2 s). Transient faults are retried with the same delays, up to 5 s apart.
 */
export const DEFAULT_FAULT_POLICY: FaultPolicy = { maxAttempts: 4, firstDelayMs: 50, maxDelayMs: 5_000 };

/** The batch that failed, as far as the tracker needs it. */
export interface FailedBatch {
  /** Ids of its events in log order (empty when the failure came before any event was read). */
  readonly eventIds: readonly string[];
  /** Position of its last event (null when it had none). */
  readonly lastPosition: LogPosition | null;
}

export type FaultDecision =
  | { readonly kind: 'retry'; readonly delayMs: number }
  | { readonly kind: 'poison'; readonly eventId: string; readonly attempts: number; readonly firstFailedAt: Date };

/** Delay after the `failures`-th consecutive failure (1-based): exponential, capped. */
export function retryDelayMs(policy: FaultPolicy, failures: number): number {
  const exponent = Math.min(Math.max(failures, 1) - 1, 30);
  return Math.min(policy.maxDelayMs, policy.firstDelayMs * 2 ** exponent);
}

/** Follows one projection's failures across batches; see FaultPolicy for the rules. */
export class FaultTracker {
  readonly #policy: FaultPolicy;
  #transientFailures = 0;
  #isolateUntil: LogPosition | null = null;
  #failing: { eventId: string; attempts: number; firstFailedAt: Date } | null = null;

  constructor(policy: FaultPolicy = DEFAULT_FAULT_POLICY) {
    if (!(policy.maxAttempts >= 1)) throw new Error('maxAttempts must be at least 1');
    this.#policy = policy;
  }

  /** How many events to read next: one at a time while narrowing down a refused batch. */
  batchSize(normal: number): number {
    return this.#isolateUntil ? 1 : normal;
  }

  /**
   * No refused event outstanding (none being narrowed down or retried): the processor may step with its group again
   * (engine.ts). Transient faults do not count: they blame no processor.
   */
  get settled(): boolean {
    return this.#failing === null && this.#isolateUntil === null;
  }

  /** A batch ending at `lastPosition` was applied (or a poisoned event passed): faults so far are over. */
  succeeded(lastPosition: LogPosition): void {
    this.#transientFailures = 0;
    this.#failing = null;
    if (this.#isolateUntil && comparePositions(lastPosition, this.#isolateUntil) >= 0) this.#isolateUntil = null;
  }

  /** Decides what follows a failed batch. */
  failed(batch: FailedBatch, transient: boolean, now: Date): FaultDecision {
    if (transient || batch.eventIds.length === 0) {
      this.#transientFailures++;
      return { kind: 'retry', delayMs: retryDelayMs(this.#policy, this.#transientFailures) };
    }
    this.#transientFailures = 0;
    if (batch.eventIds.length > 1) {
      this.#isolateUntil = batch.lastPosition;
      return { kind: 'retry', delayMs: 0 };
    }
    const eventId = batch.eventIds[0]!;
    const failing =
      this.#failing?.eventId === eventId
        ? { ...this.#failing, attempts: this.#failing.attempts + 1 }
        : { eventId, attempts: 1, firstFailedAt: now };
    this.#failing = failing;
    if (failing.attempts >= this.#policy.maxAttempts) return { kind: 'poison', ...failing };
    return { kind: 'retry', delayMs: retryDelayMs(this.#policy, failing.attempts) };
  }
}
