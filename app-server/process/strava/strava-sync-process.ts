import type { StravaClient } from '../../adapters/strava/strava-client.ts';
import type { SecretBox } from '../../auth/secrets.ts';
import { CONNECTION_EVENT_TYPES, type ConnectionEvent } from '../../integrations/connection-events.ts';
import type { IntegrationTables } from '../../integrations/tables.ts';
import type { ProcessManager } from '../process-manager.ts';
import { runBackfills } from './backfill.ts';
import { processWebhookInbox } from './webhook-inbox.ts';
import { processMetadata } from '../../commands/event-metadata.ts';
import { STRAVA } from '../../integrations/strava-actor.ts';
import { streams } from '../../../domain/shared/streams.ts';
import { appendEvents } from '../../commands/execute-command.ts';

export interface StravaSyncProcessDeps {
  readonly client: StravaClient;
  readonly box: SecretBox;
}

/**
 * The Strava side of "provider sync" (ARCHITECTURE: process managers).
 * - Events (exactly once with its checkpoint): a connection queues its 30-day backfill, a completed backfill sets
 *   last_sync_at, a disconnection dequeues it, an erased account loses its tokens.
 * - Ticks (idempotent): the webhook inbox, then the backfills. Every import goes through ImportRun on the
 *   activity's own stream, so a repeated tick, a crash mid-page or a second worker imports nothing twice.
 */
export function createStravaSyncProcess(deps: StravaSyncProcessDeps): ProcessManager {
  return {
    name: 'strava-sync',
    eventTypes: ['PersonalDataErased', ...CONNECTION_EVENT_TYPES],

    async handle(events, { tx, store, now }) {
      const db = tx.withTables<IntegrationTables>();
      for (const recorded of events) {
        if (recorded.type === 'PersonalDataErased') {
          // Erasure: the tokens and athlete id go; the Disconnected event carries no personal data.
          const userId = (recorded.data as { userId?: unknown }).userId;
          if (typeof userId !== 'string') continue;
          await db.deleteFrom('external_backfills').where('user_id', '=', userId).execute();
          const gone = await db
            .deleteFrom('external_accounts')
            .where('user_id', '=', userId)
            .returning(['id', 'provider'])
            .execute();
          for (const account of gone) {
            const disconnected: ConnectionEvent = {
              type: 'ExternalAccountDisconnected',
              data: {
                connectionId: account.id,
                userId,
                provider: 'strava',
                reason: 'erased',
                disconnectedAt: now.toISOString(),
              },
            };
            const metadata = processMetadata(STRAVA, now, `erase-${userId}`);
            await appendEvents(store, streams.externalAccount(account.id), [disconnected], metadata, 'any', tx);
          }
          continue;
        }
        if (!CONNECTION_EVENT_TYPES.has(recorded.type)) continue;
        const event = { type: recorded.type, data: recorded.data } as ConnectionEvent;
        switch (event.type) {
          case 'ExternalAccountConnected':
            await db
              .insertInto('external_backfills')
              .values({
                connection_id: event.data.connectionId,
                user_id: event.data.userId,
                requested_at: new Date(event.data.connectedAt),
                next_attempt_at: new Date(event.data.connectedAt),
                last_error: null,
              })
              .onConflict((oc) => oc.column('connection_id').doNothing())
              .execute();
            break;
          case 'ExternalBackfillCompleted':
            await db.deleteFrom('external_backfills').where('connection_id', '=', event.data.connectionId).execute();
            await db
              .updateTable('external_accounts')
              .set({ last_sync_at: new Date(event.data.completedAt) })
              .where('id', '=', event.data.connectionId)
              .where((eb) =>
                eb.or([eb('last_sync_at', 'is', null), eb('last_sync_at', '<', new Date(event.data.completedAt))]),
              )
              .execute();
            break;
          case 'ExternalAccountDisconnected':
            await db.deleteFrom('external_backfills').where('connection_id', '=', event.data.connectionId).execute();
            break;
          case 'ExternalBackfillPageImported':
            break;
          default: {
            const unreachable: never = event;
            return unreachable;
          }
        }
      }
    },

    async tick({ db, store, now }) {
      if (!deps.client.configured) return;
      const syncDeps = { db, store, box: deps.box, client: deps.client };
      await processWebhookInbox(syncDeps, now);
      await runBackfills(syncDeps, now);
    },
  };
}
