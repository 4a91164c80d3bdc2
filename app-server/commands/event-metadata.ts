import { randomUUID } from 'node:crypto';
import type { NewEvent, RecordedEvent } from '../../domain/shared/event-store.ts';
import { deterministicUuid } from './deterministic-uuid.ts';

/*
 * The metadata every stored event carries (ARCHITECTURE.md: eventId, occurredAt, actorId, correlationId,
 * causationId, schemaVersion), built in this one place. A command gets a `CommandMetadata` from one of the builders
 * below — a signed-in user's request, or a process reacting to an event, a clock tick or an outside call — and the
 * write path stamps it on each event it appends with `toNewEvent`.
 */

/** Who and what caused a command, stamped on every event it produces. */
export interface CommandMetadata {
  readonly actorId: string | null;
  readonly correlationId: string;
  readonly causationId?: string | null;
  readonly now: Date;
  newEventId(): string;
}

/** A person's command: they are the actor, their request the correlation. Event ids from `newEventId` (random). */
export function actorMetadata(
  actorId: string,
  correlationId: string,
  now: Date,
  newEventId: () => string = () => randomUUID(),
): CommandMetadata {
  return { actorId, correlationId, causationId: null, now, newEventId };
}

/** What caused a process's command: the event it reacts to, or a correlation id naming a tick or an outside call. */
export type ProcessOrigin = RecordedEvent | string;

/**
 * A process's command (`system:<process>` unless another actor is named). Caused by an event, it follows the
 * event's correlation and names it as cause; with `derivedIds` its event ids are derived from that event (and the
 * salt), so a redelivered event decides the same events with the same ids and the store keeps one copy.
 */
export function processMetadata(
  process: string,
  now: Date,
  origin: ProcessOrigin,
  options: { readonly derivedIds?: string; readonly actorId?: string | null } = {},
): CommandMetadata {
  const actorId = options.actorId === undefined ? `system:${process}` : options.actorId;
  if (typeof origin === 'string') {
    return { actorId, correlationId: origin, causationId: null, now, newEventId: () => randomUUID() };
  }
  const salt = options.derivedIds;
  let counter = 0;
  return {
    actorId,
    correlationId: origin.metadata.correlationId,
    causationId: origin.metadata.eventId,
    now,
    newEventId:
      salt === undefined
        ? () => randomUUID()
        : () => deterministicUuid(process, origin.metadata.eventId, salt, String(counter++)),
  };
}

/** Wraps a domain event with the metadata every stored event carries. */
export function toNewEvent(
  event: { readonly type: string; readonly data: unknown },
  metadata: CommandMetadata,
): NewEvent {
  return {
    type: event.type,
    data: event.data,
    metadata: {
      eventId: metadata.newEventId(),
      occurredAt: metadata.now.toISOString(),
      actorId: metadata.actorId,
      correlationId: metadata.correlationId,
      causationId: metadata.causationId ?? null,
      schemaVersion: 1,
    },
  };
}
