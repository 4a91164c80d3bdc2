import { randomUUID } from 'node:crypto';
import type { CommandMetadata } from '../commands/execute-command.ts';

/** The actor stamped on what the Strava integration does on its own (backfill, webhooks). */
export const STRAVA_ACTOR = 'system:strava';

/** Metadata of events the integration appends; `actorId` is the user when they asked for it. */
export function systemMetadata(now: Date, correlationId: string, actorId: string | null = STRAVA_ACTOR): CommandMetadata {
  return { actorId, correlationId, causationId: null, now, newEventId: () => randomUUID() };
}
