import { sql, type Transaction } from 'kysely';
import { ChangeAnnouncements } from '../../../projections/change-announcements.ts';
import type { RecordedEvent } from '../../../domain/shared/event-store.ts';
import { isStakeStream } from '../../../domain/shared/streams.ts';
import type { StakeEvent, StakeOpened } from '../../../domain/stake/events.ts';
import { stakeNewsOf } from '../../../domain/stake/stake-news.ts';
import type { ProcessManager } from '../process-manager.ts';

/** The stake events the runner hears about (domain/stake/stake-news.ts). */
export const STAKE_NEWS_EVENTS = ['StakeAppealAccepted', 'StakeAppealRefused', 'StakeRefunded'] as const;
const NEWS: ReadonlySet<string> = new Set(STAKE_NEWS_EVENTS);

/**
 * Tells runners what happened to their stake's appeal or money (issue 25): an in-app notification, written in the
 * batch's transaction under a deterministic id (`stake_update:<event id>`), so it is written exactly once; its push
 * follows from the `pending` row (retryPendingPushes, run by the reminders' tick). A runner whose account is gone
 * gets nothing (the row would name a user that no longer exists).
 */
export const stakeNewsProcess: ProcessManager = {
  name: 'stake-news',
  eventTypes: STAKE_NEWS_EVENTS,
  async handle(events, { tx, store, now }) {
    const announcements = new ChangeAnnouncements();
    for (const recorded of events) {
      if (!NEWS.has(recorded.type) || !isStakeStream(recorded.streamId)) continue;
      const news = stakeNewsOf(recorded as unknown as StakeEvent);
      if (!news) continue;
      const [opened] = await store.readStream(recorded.streamId, { transaction: tx, maxCount: 1 });
      if (opened?.type !== 'StakeOpened') continue;
      const userId = (opened as unknown as StakeOpened).data.userId;
      if (await notify(tx, recorded, userId, news, now)) announcements.add(userId, 'notifications');
    }
    await announcements.notify(tx);
  },
};

async function notify(
  tx: Transaction<object>,
  recorded: RecordedEvent,
  userId: string,
  news: { title: string; message: string },
  now: Date,
): Promise<boolean> {
  const id = `stake_update:${recorded.metadata.eventId}`;
  const data = JSON.stringify({ url: '/profile?tab=stakes' });
  const { rows } = await sql<{ id: string }>`
    INSERT INTO notifications (id, user_id, type, title, message, data, delivered_at, push_status)
    SELECT ${id}, ${userId}, 'stake_update', ${news.title}, ${news.message}, ${data}::jsonb, ${now}, 'pending'
    WHERE EXISTS (SELECT 1 FROM auth_users WHERE id = ${userId})
    ON CONFLICT (id) DO NOTHING RETURNING id`.execute(tx);
  return rows.length > 0;
}
