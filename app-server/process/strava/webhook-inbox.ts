import type { Kysely } from 'kysely';
import { StravaAuthRevoked, StravaRateLimited } from '../../adapters/strava/strava-client.ts';
import {
  accessTokenFor,
  dropAccount,
  type ExternalAccount,
  findAccountByAthlete,
} from '../../integrations/external-accounts.ts';
import {
  alreadyImported,
  importActivity,
  isRunActivity,
  removeImportedRun,
} from '../../integrations/import-activity.ts';
import { stravaWebhookEventSchema, type StravaWebhookEvent } from '../../integrations/strava-webhook.ts';
import type { SyncDeps } from '../../integrations/sync-activities.ts';
import type { IntegrationTables } from '../../integrations/tables.ts';
import { withAccessToken } from '../../integrations/with-access-token.ts';
import { retryDelayMs } from './retry.ts';

/** Events worked on per tick. */
const BATCH = 50;
/** After this many failed attempts an event is set aside (outcome `failed: …`) instead of retried forever. */
const MAX_ATTEMPTS = 8;
/** Worked events are kept this long (to see what happened), then deleted. */
const KEEP_PROCESSED_MS = 30 * 86_400_000;

/**
 * Works through the webhook inbox, oldest first. Each event is a hint only (the payload is unsigned): the activity
 * is fetched with the owner's token and must belong to them; a delete is believed when Strava no longer has the
 * activity; a deauthorization when Strava refuses the owner's refresh token. A 429 ends the tick with the event
 * left for later; other failures are retried with backoff.
 */
/**
 * The tick's batch: the oldest events due, an ordered walk of strava_webhook_inbox_open_in_order that stops after
 * BATCH rows (integrations/migrations.ts says why, as for the stake worker's due actions).
 */
export function dueWebhookEvents(db: Kysely<IntegrationTables>, now: Date) {
  return db
    .selectFrom('strava_webhook_inbox')
    .selectAll()
    .where('processed_at', 'is', null)
    .where('next_attempt_at', '<=', now)
    .orderBy('received_at')
    .orderBy('id')
    .limit(BATCH);
}

export async function processWebhookInbox(deps: SyncDeps, now: Date): Promise<void> {
  const db = deps.db.withTables<IntegrationTables>();
  await db
    .deleteFrom('strava_webhook_inbox')
    .where('processed_at', '<', new Date(now.getTime() - KEEP_PROCESSED_MS))
    .execute();
  const rows = await dueWebhookEvents(db, now).execute();
  for (const row of rows) {
    let outcome: string;
    try {
      const parsed = stravaWebhookEventSchema.safeParse(row.payload);
      outcome = parsed.success ? await handleEvent(deps, parsed.data, now) : 'ignored: unreadable';
    } catch (error) {
      if (error instanceof StravaRateLimited) return;
      const attempts = row.attempts + 1;
      const message = String((error as Error).message ?? error).slice(0, 300);
      if (attempts < MAX_ATTEMPTS) {
        await db
          .updateTable('strava_webhook_inbox')
          .set({ attempts, next_attempt_at: new Date(now.getTime() + retryDelayMs(attempts)), outcome: message })
          .where('id', '=', row.id)
          .execute();
        continue;
      }
      outcome = `failed: ${message}`;
    }
    await db.updateTable('strava_webhook_inbox').set({ processed_at: now, outcome }).where('id', '=', row.id).execute();
  }
}

async function handleEvent(deps: SyncDeps, event: StravaWebhookEvent, now: Date): Promise<string> {
  const account = await findAccountByAthlete(deps.db, 'strava', event.owner_id);
  if (!account) return 'ignored: athlete not connected';
  try {
    if (event.object_type === 'athlete') return await athleteEvent(deps, account, event, now);
    return await activityEvent(deps, account, event, now);
  } catch (error) {
    if (!(error instanceof StravaAuthRevoked)) throw error;
    await dropAccount(deps, account, 'deauthorized', now, null);
    return 'deauthorized';
  }
}

async function athleteEvent(
  deps: SyncDeps,
  account: ExternalAccount,
  event: StravaWebhookEvent,
  now: Date,
): Promise<string> {
  if (String(event.updates.authorized) !== 'false') return 'ignored: athlete update';
  // Believe it only if Strava agrees: a refused refresh token throws StravaAuthRevoked (→ dropped above).
  await accessTokenFor(deps, account, now, { force: true });
  return 'ignored: still authorized';
}

async function activityEvent(
  deps: SyncDeps,
  account: ExternalAccount,
  event: StravaWebhookEvent,
  now: Date,
): Promise<string> {
  const activityId = event.object_id;
  const correlationId = `strava-webhook-${activityId}`;
  const remove = async (why: string) =>
    (await removeImportedRun(deps.store, { userId: account.user_id, activityId, now, correlationId }))
      ? `deleted: ${why}`
      : `ignored: ${why}`;
  return withAccessToken(deps, account, now, async (accessToken) => {
    const activity = await deps.client.getActivity(accessToken, activityId);
    // Gone at Strava (deleted, or made private without activity:read_all): the run goes too.
    if (activity === null) return remove('activity not found');
    if (activity.athleteId !== null && activity.athleteId !== account.external_user_id) {
      return 'ignored: activity of another athlete';
    }
    if (event.aspect_type === 'delete') return 'ignored: activity still exists';
    if (!isRunActivity(activity)) return remove('not a run');
    if (activity.flagged && (await alreadyImported(deps.store, activityId))) {
      // A flagged run is rejected by the verification policy; without a domain command to revise an import's flags,
      // the run is removed (the same effect on every count).
      return remove('flagged');
    }
    const result = await importActivity(deps, { userId: account.user_id, accessToken, activity, now, correlationId });
    return result.outcome;
  });
}
