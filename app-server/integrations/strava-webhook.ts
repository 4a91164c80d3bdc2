import { z } from 'zod';
import { sha256 } from '../auth/secrets.ts';
import type { Limit } from '../auth/rate-limiter.ts';
import type { IntegrationTables } from './tables.ts';
import type { Kysely } from 'kysely';

/**
 * The largest webhook body read. Strava's events are a few hundred bytes (FACTS: `{object_type, aspect_type,
 * object_id, owner_id, updates}`); a bigger one is refused with 413 before it is read or parsed.
 */
export const STRAVA_WEBHOOK_MAX_BYTES = 4 * 1024;

/**
 * How many events are stored per window (auth/rate-limiter.ts counters, shared by every API instance): per athlete,
 * so one athlete named in forged events cannot fill the inbox, and overall, so forging for every connected athlete
 * cannot either. A real athlete makes a handful of events an hour (create, a few edits, a delete); 60 in 15 minutes
 * leaves room for a bulk edit. 1,000 per 15 minutes overall is more than the app's Strava read budget can work
 * through (FACTS: 100 reads per 15 min, 1,000 a day by default), so nothing real is lost that could have been used.
 */
export const STRAVA_WEBHOOK_LIMITS = {
  perOwner: { max: 60, windowSeconds: 15 * 60 },
  overall: { max: 1_000, windowSeconds: 15 * 60 },
} as const satisfies Record<string, Limit>;

// Ids are whole numbers a double holds exactly (1e308 is an "integer" too, and would be written "1e+308").
const id = z
  .union([z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER), z.string().regex(/^\d{1,20}$/)])
  .transform(String);

/**
 * `updates`: what changed, as Strava sends it — a few flat fields (`title`, `type`, `private`, `authorized`), values
 * strings (Strava writes `"true"`/`"false"`) or plain scalars. Nothing nested, a bounded number of short keys.
 */
const updates = z
  .record(z.string().regex(/^[A-Za-z0-9_]{1,32}$/), z.union([z.string().max(1_000), z.number(), z.boolean(), z.null()]))
  .refine((value) => Object.keys(value).length <= 10, { message: 'updates: too many fields' });

/**
 * A Strava webhook event (FACTS): minimal and unsigned, so it is only ever a hint to fetch the object ourselves.
 * Unknown fields are dropped (only these are stored), so a field Strava adds later does not make its events 400s.
 */
export const stravaWebhookEventSchema = z.object({
  object_type: z.enum(['activity', 'athlete']),
  object_id: id,
  aspect_type: z.enum(['create', 'update', 'delete']),
  owner_id: id,
  subscription_id: z
    .union([z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER), z.string().max(20)])
    .optional(),
  /** Epoch seconds, before 2100. */
  event_time: z.number().int().nonnegative().max(4_102_444_800),
  updates: updates.default({}),
});

export type StravaWebhookEvent = z.infer<typeof stravaWebhookEventSchema>;

/**
 * One event, one key: the object, what happened to it, whose it is and when (to the second). Strava's retries of an
 * event carry the same fields; `updates` is left out, so a forger cannot make one event many by varying it (two real
 * edits of one activity in the same second are one hint anyway: the activity is fetched as it is now).
 */
export function webhookEventKey(event: StravaWebhookEvent): string {
  return sha256([event.object_type, event.object_id, event.aspect_type, event.owner_id, event.event_time].join('|'));
}

/** Whether the event's owner is a Strava athlete connected to an account here (events of anyone else are dropped). */
export async function isConnectedAthlete(db: Kysely<object>, ownerId: string): Promise<boolean> {
  const row = await db
    .withTables<IntegrationTables>()
    .selectFrom('external_accounts')
    .select('id')
    .where('provider', '=', 'strava')
    .where('external_user_id', '=', ownerId)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Stores an event for the sync process, once per key. Quick: the webhook must answer within 2 s.
 * Answers false when the event was stored already (a retry).
 */
export async function enqueueWebhookEvent(db: Kysely<object>, event: StravaWebhookEvent, now: Date): Promise<boolean> {
  const stored = await db
    .withTables<IntegrationTables>()
    .insertInto('strava_webhook_inbox')
    .values({ id: webhookEventKey(event), received_at: now, payload: JSON.stringify(event), next_attempt_at: now })
    .onConflict((oc) => oc.column('id').doNothing())
    .returning('id')
    .executeTakeFirst();
  return stored !== undefined;
}
