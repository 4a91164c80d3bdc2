import type { LogPosition } from '../../domain/shared/event-store.ts';
import type { StravaActivity, StravaClient } from '../adapters/strava/strava-client.ts';
import { type AccountDeps, BACKFILL_DAYS, type ExternalAccount, markSynced } from './external-accounts.ts';
import { importActivity } from './import-activity.ts';
import { withAccessToken } from './with-access-token.ts';

export type SyncDeps = AccountDeps & { readonly client: StravaClient };

/** Activities per list request (Strava allows up to 200). */
export const PAGE_SIZE = 100;
/** A manual sync reads at most this many pages (rate limits: a sync must not eat the app's whole window). */
const MAX_SYNC_PAGES = 5;
/**
 * A sync re-reads this far before the last one: Strava filters on start_date, and a watch may upload a run days
 * after it started. Re-reading is cheap, importing is idempotent per activity.
 */
const SYNC_OVERLAP_MS = 3 * 86_400_000;

export interface PageResult {
  readonly activities: number;
  readonly imported: number;
  /** The last position appended (for read-your-writes), null when nothing was. */
  readonly position: LogPosition | null;
}

/** Imports the runs of one page of activities, in order; stops at the first failure (the caller retries). */
export async function importActivities(
  deps: SyncDeps,
  input: {
    userId: string;
    accessToken: string;
    activities: readonly StravaActivity[];
    now: Date;
    correlationId: string;
  },
): Promise<PageResult> {
  let imported = 0;
  let position: LogPosition | null = null;
  for (const activity of input.activities) {
    const result = await importActivity(deps, { ...input, activity });
    if (result.outcome === 'imported') imported++;
    if (result.position) position = result.position;
  }
  return { activities: input.activities.length, imported, position };
}

/**
 * POST /api/integrations/strava/sync: imports the activities started since the last sync (with some overlap), or
 * over the backfill window for an account never synced. Records last_sync_at when every page was read.
 */
export async function syncSinceLastSync(
  deps: SyncDeps,
  account: ExternalAccount,
  now: Date,
  correlationId: string,
): Promise<PageResult> {
  const floor = now.getTime() - BACKFILL_DAYS * 86_400_000;
  const after = new Date(
    account.last_sync_at ? Math.max(floor, account.last_sync_at.getTime() - SYNC_OVERLAP_MS) : floor,
  );
  return withAccessToken(deps, account, now, async (accessToken) => {
    let imported = 0;
    let activities = 0;
    let position: LogPosition | null = null;
    for (let page = 1; page <= MAX_SYNC_PAGES; page++) {
      const list = await deps.client.listActivities(accessToken, { after, page, perPage: PAGE_SIZE });
      const result = await importActivities(deps, {
        userId: account.user_id,
        accessToken,
        activities: list,
        now,
        correlationId,
      });
      imported += result.imported;
      activities += result.activities;
      position = result.position ?? position;
      if (list.length < PAGE_SIZE) {
        await markSynced(deps.db, account.id, now);
        break;
      }
    }
    return { activities, imported, position };
  });
}
