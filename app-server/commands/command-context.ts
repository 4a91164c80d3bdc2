import { randomUUID } from 'node:crypto';
import type { Transaction } from 'kysely';
import { Temporal } from 'temporal-polyfill';
import type { EventStore } from '../../domain/shared/event-store.ts';
import type { Database } from '../db/database.ts';
import { actorMetadata, type CommandMetadata } from './event-metadata.ts';
import { executeInTransaction } from './execute-command.ts';

/** What a user's command needs: the store, the database (for multi-stream transactions), who, when, which request. */
export interface UserCommandContext {
  readonly store: EventStore<Transaction<object>>;
  readonly database: Database;
  readonly userId: string;
  readonly now: Date;
  readonly correlationId: string;
}

/** Metadata of the events a user's command appends. */
export function userMetadata(context: UserCommandContext): CommandMetadata {
  return actorMetadata(context.userId, context.correlationId, context.now);
}

/**
 * The id of the aggregate a creating command makes: random. A keyed retry does not make it again: it answers the
 * result its first execution recorded (idempotency/keyed-request.ts).
 */
export function newAggregateId(): string {
  return randomUUID();
}

/** The transaction a command writes in: the caller's (a keyed request's `once`), or one of its own. */
export function inTransaction<T>(
  context: UserCommandContext,
  tx: Transaction<object> | undefined,
  work: (tx: Transaction<object>) => Promise<T>,
): Promise<T> {
  return tx ? work(tx) : executeInTransaction(context.database, work);
}

/** The context's time as the domain takes it. */
export function instantOf(context: UserCommandContext): Temporal.Instant {
  return Temporal.Instant.fromEpochMilliseconds(context.now.getTime());
}
