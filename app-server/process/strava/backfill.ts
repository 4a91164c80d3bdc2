import { WrongExpectedVersionError } from '../../../domain/shared/event-store.ts';
import { StravaAuthRevoked, StravaRateLimited } from '../../adapters/strava/strava-client.ts';
import { type ConnectionEvent, foldConnection } from '../../integrations/connection-events.ts';
import { dropAccount, findAccountById } from '../../integrations/external-accounts.ts';
import { importActivities, PAGE_SIZE, type SyncDeps } from '../../integrations/sync-activities.ts';
import type { IntegrationTables } from '../../integrations/tables.ts';
import { withAccessToken } from '../../integrations/with-access-token.ts';
import { retryDelayMs } from './retry.ts';
import { processMetadata } from '../../commands/event-metadata.ts';
import { STRAVA } from '../../integrations/strava-actor.ts';
import { streams } from '../../../domain/shared/streams.ts';
import { appendEvents } from '../../commands/execute-command.ts';

/** Pages one backfill may read per tick, so one athlete's history cannot take a whole rate window. */
const MAX_PAGES_PER_TICK = 10;
/** Backfills worked on per tick. */
const MAX_BACKFILLS_PER_TICK = 20;

/**
 * Runs the pending 30-day backfills, page by page. Each imported page is recorded as an event on the connection's
 * stream (with the expected version, so two workers never record the same page), so a crash resumes at the first
 * page not recorded; re-importing part of a page is harmless (ImportRun is idempotent per activity). The last page
 * (shorter than a full one) records ExternalBackfillCompleted. A 429 ends the tick: the rate gate keeps every
 * further call from leaving until the window resets.
 */
export async function runBackfills(deps: SyncDeps, now: Date): Promise<void> {
  const db = deps.db.withTables<IntegrationTables>();
  const due = await db
    .selectFrom('external_backfills')
    .selectAll()
    .where('next_attempt_at', '<=', now)
    .orderBy('requested_at')
    .limit(MAX_BACKFILLS_PER_TICK)
    .execute();
  for (const row of due) {
    try {
      await backfillConnection(deps, row.connection_id, now);
    } catch (error) {
      if (error instanceof StravaRateLimited) return;
      await db
        .updateTable('external_backfills')
        .set({
          attempts: row.attempts + 1,
          next_attempt_at: new Date(now.getTime() + retryDelayMs(row.attempts + 1)),
          last_error: String((error as Error).message ?? error).slice(0, 500),
        })
        .where('connection_id', '=', row.connection_id)
        .execute();
    }
  }
}

async function backfillConnection(deps: SyncDeps, connectionId: string, now: Date): Promise<void> {
  let state = foldConnection(await deps.store.readStream(streams.externalAccount(connectionId)));
  // Completed or disconnected: the process's handler removes the row when it reaches that event.
  if (state.status !== 'backfilling' || !state.backfillFrom || !state.backfillTo || !state.userId) return;
  const account = await findAccountById(deps.db, connectionId);
  if (!account) return;
  const correlationId = `backfill-${connectionId}`;
  const metadata = processMetadata(STRAVA, now, correlationId);
  try {
    await withAccessToken(deps, account, now, async (accessToken) => {
      for (let i = 0; i < MAX_PAGES_PER_TICK; i++) {
        const page = state.nextPage;
        const list = await deps.client.listActivities(accessToken, {
          after: state.backfillFrom!,
          before: state.backfillTo!,
          page,
          perPage: PAGE_SIZE,
        });
        const result = await importActivities(deps, {
          userId: account.user_id,
          accessToken,
          activities: list,
          now,
          correlationId,
        });
        const done = list.length < PAGE_SIZE;
        const events: ConnectionEvent[] = [
          {
            type: 'ExternalBackfillPageImported',
            data: {
              connectionId,
              userId: account.user_id,
              page,
              activities: result.activities,
              imported: result.imported,
              importedAt: now.toISOString(),
            },
          },
        ];
        if (done) {
          events.push({
            type: 'ExternalBackfillCompleted',
            data: { connectionId, userId: account.user_id, completedAt: now.toISOString() },
          });
        }
        const stream = streams.externalAccount(connectionId);
        const append = await appendEvents(deps.store, stream, events, metadata, state.revision);
        if (done || !append) return;
        state = { ...state, nextPage: page + 1, revision: append.nextExpectedRevision };
      }
    });
  } catch (error) {
    // Another worker recorded this page first: it owns the backfill now.
    if (error instanceof WrongExpectedVersionError) return;
    if (error instanceof StravaAuthRevoked) {
      await dropAccount(deps, account, 'deauthorized', now, null);
      return;
    }
    throw error;
  }
}
