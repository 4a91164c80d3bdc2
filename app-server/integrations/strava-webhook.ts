import { z } from 'zod';
import { sha256 } from '../auth/secrets.ts';
import type { IntegrationTables } from './tables.ts';
import type { Kysely } from 'kysely';

// Ids are whole numbers a double holds exactly (1e308 is an "integer" too, and would be written "1e+308").
const id = z
  .union([z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER), z.string().regex(/^\d{1,20}$/)])
  .transform(String);

/** A Strava webhook event (FACTS): minimal and unsigned, so it is only ever a hint to fetch the object ourselves. */
export const stravaWebhookEventSchema = z.object({
  object_type: z.enum(['activity', 'athlete']),
  object_id: id,
  aspect_type: z.enum(['create', 'update', 'delete']),
  owner_id: id,
  subscription_id: z.union([z.number(), z.string()]).optional(),
  /** Epoch seconds, before 2100. */
  event_time: z.number().int().nonnegative().max(4_102_444_800),
  updates: z.record(z.string(), z.unknown()).default({}),
});

export type StravaWebhookEvent = z.infer<typeof stravaWebhookEventSchema>;

/** Strava retries an event it did not see answered in time: the same event keeps the same key. */
export function webhookEventKey(event: StravaWebhookEvent): string {
  return sha256(
    [
      event.object_type,
      event.object_id,
      event.aspect_type,
      event.owner_id,
      event.event_time,
      JSON.stringify(event.updates),
    ].join('|'),
  );
}

/** Stores an event for the sync process (once per key). Quick: the webhook must answer within 2 s. */
export async function enqueueWebhookEvent(db: Kysely<object>, event: StravaWebhookEvent, now: Date): Promise<void> {
  await db
    .withTables<IntegrationTables>()
    .insertInto('strava_webhook_inbox')
    .values({ id: webhookEventKey(event), received_at: now, payload: JSON.stringify(event), next_attempt_at: now })
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
}
