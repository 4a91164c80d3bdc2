import { randomUUID } from 'node:crypto';
import type { RecordedEvent } from '../../../domain/shared/event-store.ts';
import type { CommandMetadata } from '../../commands/execute-command.ts';

/** Metadata for a command the stake process issues: caused by an event, a tick, or a provider webhook. */
export function stakeProcessMetadata(now: Date, cause: RecordedEvent | null, correlation?: string): CommandMetadata {
  return {
    actorId: 'system:stakes',
    correlationId: cause?.metadata.correlationId ?? correlation ?? `stakes-tick-${now.toISOString()}`,
    causationId: cause?.metadata.eventId ?? null,
    now,
    newEventId: () => randomUUID(),
  };
}
