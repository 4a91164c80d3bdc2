import type { Transaction } from 'kysely';
import type { RecordedEvent } from '../../domain/shared/event-store.ts';
import type { ChangeTopic } from '../change-announcements.ts';
import type { FaultPolicy } from './fault-tracker.ts';
import type { PoisonReport } from './poisoned-events.ts';

/** What a processor gets for one batch: the transaction that also stores its checkpoint. */
export interface BatchContext {
  readonly tx: Transaction<object>;
  /** Tells a user's open clients a list changed: a NOTIFY in the batch's transaction, heard once it commits. */
  announce(userId: string, topic: ChangeTopic): void;
}

/**
 * Anything that follows the log on the engine: a projector (read-model rows) or a reactor (a process manager), handed
 * the events of its types in log order and exactly once, each batch in the transaction that stores its checkpoint.
 */
export interface Processor {
  /** Unique and stable (kebab-case): the key of its checkpoint. */
  readonly name: string;
  /** A projector's output version (a bump: start-up rebuilds it); reactors are never rebuilt. */
  readonly version: number;
  /**
   * The event types it handles; others are neither read nor delivered (a GPS-heavy run it ignores costs it nothing).
   * Required, so a new processor says what it reads; 'all' is for one that looks at every event (log statistics).
   */
  readonly eventTypes: EventTypes;
  /** `data` fields it never reads, left out of its batches. */
  readonly withoutFields: readonly string[];
  /** What a refused batch leads to (fault-tracker.ts): projectors pass a poisoned event, reactors retry for ever. */
  readonly failure: FaultPolicy;
  /** Most events per batch (default: the engine's). */
  readonly batchSize?: number;
  handle(events: readonly RecordedEvent[], context: BatchContext): Promise<void>;
  /** Records an event given up on, in the transaction that passes it (failure.maxAttempts reached). */
  passPoisoned?(report: PoisonReport, tx: Transaction<object>): Promise<void>;
  /** Hears every failure (logging); the engine retries on its own. */
  onError?(error: unknown): void;
}

/** Reactors are retried until they succeed, 100 ms to 5 s apart, and never pass an event. */
export const RETRY_FOREVER: FaultPolicy = {
  maxAttempts: Number.POSITIVE_INFINITY,
  firstDelayMs: 100,
  maxDelayMs: 5_000,
};

/** The event types a processor handles, or every one. */
export type EventTypes = readonly string[] | 'all';

/** The types to ask the store for on behalf of processors that handle `lists` (undefined: every type). */
export function typesToRead(lists: readonly EventTypes[]): readonly string[] | undefined {
  return lists.includes('all') ? undefined : [...new Set(lists.flat())];
}

export function handles(processor: Pick<Processor, 'eventTypes'>, type: string): boolean {
  return processor.eventTypes === 'all' || processor.eventTypes.includes(type);
}
