import type { Kysely, Transaction } from 'kysely';
import type { EventStore, RecordedEvent } from '../../../domain/shared/event-store.ts';
import { Engine } from '../../../projections/engine/engine.ts';
import { RETRY_FOREVER } from '../../../projections/engine/processor.ts';

/** One follower of the log as these tests write it: a checkpoint name and a handler given the batch's transaction. */
export interface Follower {
  readonly checkpointName: string;
  readonly batchSize?: number;
  readonly withoutFields?: readonly string[];
  handle(events: readonly RecordedEvent[], tx: Transaction<object>): Promise<void>;
  onError?(error: unknown): void;
}

/** Followers as reactors on the processing engine, started: what a process manager host does with its managers. */
export function followLog(db: Kysely<object>, store: EventStore<never>, followers: readonly Follower[]) {
  const engine = new Engine({
    db,
    store: store as EventStore<Transaction<object>>,
    idleMs: 5_000,
    processors: followers.map((f) => ({
      name: f.checkpointName,
      version: 1,
      eventTypes: 'all',
      withoutFields: f.withoutFields ?? [],
      failure: RETRY_FOREVER,
      ...(f.batchSize !== undefined && { batchSize: f.batchSize }),
      handle: (events, { tx }) => f.handle(events, tx),
      ...(f.onError && { onError: (error: unknown) => f.onError!(error) }),
    })),
  });
  engine.start();
  return { caughtUp: () => engine.caughtUp(), stop: () => engine.stop() };
}
