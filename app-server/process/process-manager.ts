import type { Kysely, Transaction } from 'kysely';
import type { EventStore, RecordedEvent } from '../../domain/shared/event-store.ts';

/** What a process manager gets for one batch of events. */
export interface ProcessEventContext {
  /** The subscription's transaction: writes through it (own tables, appends with `{ transaction: tx }`) commit with the checkpoint. */
  readonly tx: Transaction<object>;
  readonly store: EventStore<Transaction<object>>;
  readonly now: Date;
}

/** What a process manager gets on a clock tick. */
export interface ProcessTickContext {
  readonly db: Kysely<object>;
  readonly store: EventStore<Transaction<object>>;
  readonly now: Date;
}

/**
 * A long-running reaction to events and to the passing of time (goal activation at week start, settlement,
 * reminders, stake holds). Its event handling is checkpointed exactly once; its ticks must be idempotent: every
 * effect carries a deterministic id or idempotency key, so a tick repeated after a crash changes nothing twice.
 */
export interface ProcessManager {
  /** Unique, stable name; its checkpoint is `pm:<name>`. */
  readonly name: string;
  handle?(events: readonly RecordedEvent[], context: ProcessEventContext): Promise<void>;
  /** `data` fields `handle` never reads, left out of its batches; absent: the GPS track (as for projectors). */
  readonly withoutFields?: readonly string[];
  tick?(context: ProcessTickContext): Promise<void>;
}
