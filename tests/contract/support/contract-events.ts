import { randomUUID } from 'node:crypto';
import type { NewEvent } from '../../../domain/shared/event-store.ts';

/** A unique prefix so tests sharing one store never see each other's streams. */
export function uniquePrefix(label: string): string {
  return `${label}-${randomUUID().slice(0, 8)}`;
}

/** A new event with full metadata; `data` defaults to a counter so order is visible in failures. */
export function newEvent(type = 'Tested', data: unknown = {}, schemaVersion = 1): NewEvent {
  const eventId = randomUUID();
  return {
    type,
    data,
    metadata: {
      eventId,
      occurredAt: '2026-11-22T10:15:30.123+01:00',
      actorId: 'user-42',
      correlationId: `corr-${eventId.slice(0, 8)}`,
      causationId: null,
      schemaVersion,
    },
  };
}

/** `count` events numbered from `from` in their data. */
export function numberedEvents(count: number, from = 0): NewEvent[] {
  return Array.from({ length: count }, (_, i) => newEvent('Numbered', { n: from + i }));
}
