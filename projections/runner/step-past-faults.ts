import type { Kysely, Transaction } from 'kysely';
import type { EventStore, LogPosition, RecordedEvent } from '../../domain/shared/event-store.ts';
import { type BatchTarget, type PendingBatch, applyBatch, passPoisonedEvent, readNextBatch } from './apply-batch.ts';
import type { FaultTracker } from './fault-tracker.ts';
import type { PoisonReport } from './poisoned-events.ts';
import { isTransientDatabaseError } from './transient-error.ts';

/** What one step over the log did. */
export type StepOutcome =
  /** `events` were applied (none: nothing new, or another runner took the batch). */
  | { readonly kind: 'applied'; readonly events: readonly RecordedEvent[] }
  /**
   * The batch failed; try again after `retryInMs`. `blamesEvents` is false when no event could be blamed (the log
   * or the checkpoint could not be read).
   */
  | {
      readonly kind: 'failed';
      readonly error: unknown;
      readonly transient: boolean;
      readonly blamesEvents: boolean;
      readonly retryInMs: number;
    }
  /** An event was given up on and passed (recorded as poisoned unless the target is a rebuild copy). */
  | { readonly kind: 'poisoned'; readonly report: PoisonReport };

export interface StepOptions {
  readonly batchSize: number;
  readonly now: () => Date;
}

/**
 * Where a live loop left its checkpoint, kept between steps so a wake-up that finds nothing new costs one read of
 * the log instead of two queries. Undefined: not known (read the stored checkpoint). Only ever behind or at the
 * stored position (checkpoints move forward only), so a read after it misses nothing; a stale one makes the apply
 * find a moved checkpoint under its lock, which applies nothing and forgets the position.
 */
export interface CheckpointCursor {
  position?: LogPosition | null;
}

/**
 * One step of a projection over the log that cannot be stopped by one bad event: read the next batch and apply it;
 * on failure let the tracker decide between retrying later, narrowing down to single events, and passing an event
 * it keeps refusing (see FaultTracker). Never throws: every failure comes back as an outcome.
 */
export async function stepPastFaults(
  db: Kysely<object>,
  store: EventStore<Transaction<object>>,
  target: BatchTarget,
  tracker: FaultTracker,
  options: StepOptions,
  cursor: CheckpointCursor = {},
): Promise<StepOutcome> {
  let batch: PendingBatch | null = null;
  try {
    batch = await readNextBatch(db, store, target, tracker.batchSize(options.batchSize), cursor.position);
    if (batch.events.length === 0) {
      cursor.position = batch.after;
      return { kind: 'applied', events: [] };
    }
    const applied = await applyBatch(db, target, batch, options.now());
    if (applied === 0) {
      // Another runner (a second instance, a rebuild's swap) moved the checkpoint: read it again next time.
      cursor.position = undefined;
      return { kind: 'applied', events: [] };
    }
    const last = batch.events[batch.events.length - 1]!.position;
    cursor.position = last;
    tracker.succeeded(last);
    return { kind: 'applied', events: batch.events };
  } catch (error) {
    cursor.position = undefined;
    const transient = isTransientDatabaseError(error);
    const events = batch?.events ?? [];
    const now = options.now();
    const decision = tracker.failed(
      { eventIds: events.map((e) => e.metadata.eventId), lastPosition: events.at(-1)?.position ?? null },
      transient,
      now,
    );
    if (decision.kind === 'retry') {
      return { kind: 'failed', error, transient, blamesEvents: events.length > 0, retryInMs: decision.delayMs };
    }
    const report: PoisonReport = {
      projection: target.projector.name,
      event: events[0]!,
      error: describeError(error),
      attempts: decision.attempts,
      firstSeenAt: decision.firstFailedAt,
      lastSeenAt: now,
    };
    return passPoisoned(db, target, tracker, batch!, report);
  }
}

async function passPoisoned(
  db: Kysely<object>,
  target: BatchTarget,
  tracker: FaultTracker,
  batch: PendingBatch,
  report: PoisonReport,
): Promise<StepOutcome> {
  try {
    if (!(await passPoisonedEvent(db, target, batch, report))) return { kind: 'applied', events: [] };
    tracker.succeeded(report.event.position);
    return { kind: 'poisoned', report };
  } catch (error) {
    // Could not record it (the database went away meanwhile): the next attempt fails again and decides again.
    return { kind: 'failed', error, transient: isTransientDatabaseError(error), blamesEvents: true, retryInMs: 0 };
  }
}

/** Consecutive failures that blame no event (transient faults, an unreadable log) after which a one-off catch-up (CLI, rebuild, tests) gives up and reports. */
export const CATCH_UP_TRANSIENT_LIMIT = 10;

/**
 * Applies everything up to the head of the log to one target, passing poisoned events (see stepPastFaults) and
 * retrying transient faults a bounded number of times before rethrowing; a failure that is neither transient nor
 * blamed on an event (a missing checkpoint, an unreadable log) is rethrown at once. For one-off runs, not live
 * following.
 */
export async function drainPastFaults(
  db: Kysely<object>,
  store: EventStore<Transaction<object>>,
  target: BatchTarget,
  tracker: FaultTracker,
  options: StepOptions & {
    readonly onApplied?: (events: readonly RecordedEvent[]) => void;
    readonly onPoisoned?: (report: PoisonReport) => void;
    /** Awaited after each applied batch, outside its transaction (a rebuild's table maintenance). */
    readonly betweenBatches?: () => Promise<void>;
  },
): Promise<void> {
  for (;;) {
    const outcome = await stepPastFaults(db, store, target, tracker, options);
    if (outcome.kind === 'applied') {
      if (outcome.events.length === 0) return;
      options.onApplied?.(outcome.events);
      await options.betweenBatches?.();
    } else if (outcome.kind === 'poisoned') {
      options.onPoisoned?.(outcome.report);
    } else {
      if (!outcome.transient && !outcome.blamesEvents) throw outcome.error;
      if (tracker.transientFailures >= CATCH_UP_TRANSIENT_LIMIT) throw outcome.error;
      await new Promise((resolve) => setTimeout(resolve, outcome.retryInMs));
    }
  }
}

/** The error as an operator reads it: the SQLSTATE or Node code when there is one, then the message. */
export function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' ? `${code}: ${error.message}` : error.message;
}
