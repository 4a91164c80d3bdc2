import { randomUUID } from 'node:crypto';
import type { Transaction } from 'kysely';
import { Temporal } from 'temporal-polyfill';
import type { EventStore } from '../../domain/shared/event-store.ts';
import type { Database } from '../db/database.ts';
import { actorMetadata, type CommandMetadata } from './event-metadata.ts';
import { keyedEventIds, keyedId, type RequestKey } from './idempotency/request-key.ts';

/** What a user's command needs: the store, the database (for multi-stream transactions), who, when, which request. */
export interface UserCommandContext {
  readonly store: EventStore<Transaction<object>>;
  readonly database: Database;
  readonly userId: string;
  readonly now: Date;
  readonly correlationId: string;
  /** The request's Idempotency-Key when it sent one (creating routes): ids and event ids are then derived from it. */
  readonly idempotency?: RequestKey | null;
}

/** Metadata of the events a user's command appends. */
export function userMetadata(context: UserCommandContext): CommandMetadata {
  // With an Idempotency-Key the event ids are the key's, so a twin request decides the same ids (kept once).
  const eventIds = context.idempotency ? keyedEventIds(context.idempotency) : undefined;
  return actorMetadata(context.userId, context.correlationId, context.now, eventIds);
}

/** The id of the aggregate a creating command makes: from the Idempotency-Key when there is one, else random. */
export function newAggregateId(context: UserCommandContext, purpose?: string): string {
  return context.idempotency ? keyedId(context.idempotency, purpose) : randomUUID();
}

/** The context's time as the domain takes it. */
export function instantOf(context: UserCommandContext): Temporal.Instant {
  return Temporal.Instant.fromEpochMilliseconds(context.now.getTime());
}
