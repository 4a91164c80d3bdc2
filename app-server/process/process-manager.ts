import type { Kysely, Transaction } from 'kysely';
import type { EventStore, RecordedEvent } from '../../domain/shared/event-store.ts';

/** What a process manager gets for one batch of events. */
export interface ProcessEventContext {
  /** The batch's transaction: writes through it (own tables, appends with `{ transaction: tx }`) commit with the checkpoint. */
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
export type ProcessManager = {
  /** Unique, stable name; its checkpoint is `pm:<name>`. */
  readonly name: string;
  tick?(context: ProcessTickContext): Promise<void>;
} & (EventHandling | { readonly handle?: undefined; readonly eventTypes?: undefined });

/** A process manager that reacts to events declares which: the compiler refuses a `handle` without `eventTypes`. */
interface EventHandling {
  handle(events: readonly RecordedEvent[], context: ProcessEventContext): Promise<void>;
  /** The event types `handle` reads: the engine reads and delivers no others (a GPS-heavy run costs it nothing). */
  readonly eventTypes: readonly string[];
  /** `data` fields `handle` never reads, left out of its batches; absent: the GPS track (as for projectors). */
  readonly withoutFields?: readonly string[];
}
