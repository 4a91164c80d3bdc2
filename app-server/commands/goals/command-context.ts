import { randomUUID } from 'node:crypto';
import type { Transaction } from 'kysely';
import { Temporal } from 'temporal-polyfill';
import type { EventStore } from '../../../domain/shared/event-store.ts';
import type { Database } from '../../db/database.ts';
import type { CommandMetadata } from '../execute-command.ts';

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
  return {
    actorId: context.userId,
    correlationId: context.correlationId,
    causationId: null,
    now: context.now,
    newEventId: () => randomUUID(),
  };
}

/** The context's time as the domain takes it. */
export function instantOf(context: UserCommandContext): Temporal.Instant {
  return Temporal.Instant.fromEpochMilliseconds(context.now.getTime());
}
