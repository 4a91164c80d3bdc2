import { type Kysely, sql } from 'kysely';
import { ChangeAnnouncements } from '../../../projections/change-announcements.ts';
import type { PushSender } from '../../adapters/push/push-sender.ts';

/**
 * The kinds of notification (§2 routes taps by type); `test` is POST /notifications/test. `stake_update` (an appeal
 * decided, a refund made: process/stake-news) carries its tap's path in `url`.
 */
export type NotificationType = 'upcoming_goal' | 'midweek_update' | 'ending_soon' | 'stake_update';

/** A notification to deliver. `id` is the idempotency key. */
export interface OutgoingNotification {
  readonly id: string;
  readonly userId: string;
  readonly type: NotificationType;
  readonly title: string;
  readonly message: string;
  /** Tap routing: url, and groupId for ending_soon (§2). */
  readonly data: Readonly<Record<string, string>>;
}

/**
 * Delivers once: the row is inserted (in-app notification, announced to the user's clients on commit) under its
 * deterministic id; only the call that inserted it pushes. A crash after the insert leaves the row `pending`, and
 * `retryPendingPushes` finishes the push later — at most one push per device unless the crash falls between FCM
 * accepting and the status update, which FCM gives no way to close.
 */
export async function deliverNotification(
  db: Kysely<object>,
  push: PushSender,
  n: OutgoingNotification,
  now: Date,
): Promise<boolean> {
  const inserted = await db.transaction().execute(async (tx) => {
    const { rows } = await sql<{ id: string }>`
      INSERT INTO notifications (id, user_id, type, title, message, data, delivered_at, push_status)
      VALUES (${n.id}, ${n.userId}, ${n.type}, ${n.title}, ${n.message}, ${JSON.stringify(n.data)}::jsonb, ${now}, 'pending')
      ON CONFLICT (id) DO NOTHING RETURNING id`.execute(tx);
    if (rows.length === 0) return false;
    const announcements = new ChangeAnnouncements();
    announcements.add(n.userId, 'notifications');
    await announcements.notify(tx);
    return true;
  });
  if (inserted) await pushNotification(db, push, n);
  return inserted;
}

/** Pushes one stored notification to every device of its user, forgets dead tokens, and records the outcome. */
async function pushNotification(db: Kysely<object>, push: PushSender, n: OutgoingNotification): Promise<void> {
  const { rows: tokens } = await sql<{ token: string }>`
    SELECT token FROM push_tokens WHERE user_id = ${n.userId} ORDER BY token`.execute(db);
  let status = 'in_app';
  let sent = 0;
  if (push.kind !== 'in_app' && tokens.length > 0) {
    const data = { ...n.data, type: n.type, notificationId: n.id };
    const outcomes = await push.send(tokens.map((t) => ({ token: t.token, title: n.title, body: n.message, data })));
    const dead = tokens.filter((_, i) => outcomes[i] === 'invalid_token').map((t) => t.token);
    if (dead.length > 0) await sql`DELETE FROM push_tokens WHERE token = ANY(${dead}::text[])`.execute(db);
    sent = outcomes.filter((o) => o === 'sent').length;
    status = sent > 0 ? 'sent' : 'failed';
  }
  await sql`UPDATE notifications SET push_status = ${status}, push_sent = ${sent} WHERE id = ${n.id}`.execute(db);
}

/** Finishes pushes a crash left pending (older than a minute, so a delivery in flight is not doubled). */
export async function retryPendingPushes(db: Kysely<object>, push: PushSender, now: Date): Promise<void> {
  const { rows } = await sql<{
    id: string;
    user_id: string;
    type: NotificationType;
    title: string;
    message: string;
    data: Record<string, string>;
  }>`
    SELECT id, user_id, type, title, message, data FROM notifications
    WHERE push_status = 'pending' AND delivered_at < ${new Date(now.getTime() - 60_000)} ORDER BY delivered_at LIMIT 100`.execute(
    db,
  );
  for (const r of rows) {
    await pushNotification(db, push, {
      id: r.id,
      userId: r.user_id,
      type: r.type,
      title: r.title,
      message: r.message,
      data: r.data,
    });
  }
}
