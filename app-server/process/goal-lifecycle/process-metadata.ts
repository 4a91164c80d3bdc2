import { randomUUID } from 'node:crypto';
import type { RecordedEvent } from '../../../domain/shared/event-store.ts';
import type { CommandMetadata } from '../../commands/execute-command.ts';

/** Metadata for a command the goal lifecycle issues: caused by an event, or by a clock tick. */
export function processMetadata(now: Date, cause: RecordedEvent | null): CommandMetadata {
  return {
    actorId: 'system:goal-lifecycle',
    correlationId: cause?.metadata.correlationId ?? `goal-lifecycle-tick-${now.toISOString()}`,
    causationId: cause?.metadata.eventId ?? null,
    now,
    newEventId: () => randomUUID(),
  };
}
