import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { routeForNotification } from '../../../lib/platform/notification-routes.ts';
import { type AppNotification, getNewestNotifications, getNotificationsAfter } from '../api/get-notifications.ts';
import { MAX_SHOWN, NOTIFICATION_POLL_MS, NotificationInbox } from '../notification-inbox.ts';

/**
 * In-app notifications (§7): every 30 s, and at once when the realtime stream says notifications changed, the app
 * asks for notifications delivered after the last check and shows each new one as a card until it is closed or
 * opened. This is how reminders reach a browser without web push, and how the profile's "Send test" shows up.
 * Mount one per signed-in user (keyed by user id), so the inbox starts fresh for each.
 */
export function InAppNotifications() {
  const inbox = useRef<NotificationInbox | null>(null);
  const [shown, setShown] = useState<readonly AppNotification[]>([]);
  const check = useQuery({
    // Under 'notifications': the realtime topic of that name refetches it (app/realtime-sync.tsx).
    queryKey: ['notifications', 'in-app'],
    queryFn: async (): Promise<AppNotification[]> => {
      if (!inbox.current) {
        inbox.current = new NotificationInbox(await getNewestNotifications());
        return [];
      }
      const current = inbox.current;
      return current.receive(await getNotificationsAfter(current.checkFrom()));
    },
    refetchInterval: NOTIFICATION_POLL_MS,
    staleTime: 0,
  });

  useEffect(() => {
    const fresh = check.data ?? [];
    if (fresh.length > 0) setShown((list) => [...list, ...fresh].slice(-MAX_SHOWN));
  }, [check.data]);

  if (shown.length === 0) return null;
  const close = (id: string) => setShown((list) => list.filter((n) => n.id !== id));
  return (
    <section className="in-app-notifications" aria-label="Notifications">
      {shown.map((n) => (
        <article key={n.id} className="in-app-notification" role="status">
          <div>
            <strong>{n.payload.title}</strong>
            <p className="small">{n.payload.message}</p>
          </div>
          <Link className="button ghost small" to={routeForNotification(n.payload)} onClick={() => close(n.id)}>
            Open
          </Link>
          <button type="button" className="icon-button" aria-label="Dismiss notification" onClick={() => close(n.id)}>
            ×
          </button>
        </article>
      ))}
    </section>
  );
}
