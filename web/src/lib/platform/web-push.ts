import { api } from '../api.ts';
import { currentAccess } from '../auth-client.ts';
import type { DataEnvelope } from '../api-types.ts';
import { SERVICE_WORKER_URL } from '../service-worker.ts';
import type { NotificationData, PushMessaging, PushPermission } from './push.ts';

/** The message the service worker's push handlers (web/public/push-sw.js) post when a notification is tapped. */
const TAP_MESSAGE = 'stridestake-notification-tap';

/** Asked of a signed-out page, the key is not looked up (the route needs a session: a 401 in the console). */
const SIGNED_OUT = Symbol('signed out');

/**
 * GET /notifications/web-push-key: the server's VAPID public key, null when Web Push is not configured. Only once
 * signed in: before the session exists nothing is asked (SIGNED_OUT), and the next call asks again.
 */
async function serverKey(): Promise<string | null | typeof SIGNED_OUT> {
  if (!(await currentAccess())) return SIGNED_OUT;
  const { data } = await api<DataEnvelope<{ public_key: string | null }>>('/notifications/web-push-key');
  return data.public_key;
}

/** Whether this browser can do Web Push at all (a service worker, PushManager and notifications). */
function browserSupportsPush(): boolean {
  return (
    typeof navigator !== 'undefined' &&
    'serviceWorker' in navigator &&
    typeof PushManager !== 'undefined' &&
    typeof Notification !== 'undefined'
  );
}

function permissionOf(value: NotificationPermission): PushPermission {
  return value === 'default' ? 'prompt' : value;
}

/** A base64url VAPID key as the bytes `pushManager.subscribe` takes. */
export function vapidKeyBytes(key: string): Uint8Array<ArrayBuffer> {
  const base64 = key
    .replace(/-/g, '+')
    .replace(/_/g, '/')
    .padEnd(Math.ceil(key.length / 4) * 4, '=');
  const binary = atob(base64);
  const bytes = new Uint8Array(new ArrayBuffer(binary.length));
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

const UNAVAILABLE = 'Push notifications are not available on the web here (no service worker or no Web Push key)';

/**
 * Push for the web app over the Web Push protocol: when the server has a VAPID key and the browser can, the push
 * service worker is registered and the browser subscribed; the subscription (JSON) is the device's token, platform
 * 'web'. Without either, push is 'unsupported' and the app relies on its in-app notifications.
 */
export function webPushMessaging(
  fetchKey: () => Promise<string | null | typeof SIGNED_OUT> = serverKey,
): PushMessaging {
  let key: Promise<string | null> | null = null;
  const vapidKey = () => {
    // One look-up per page; a failed one, or one asked before sign-in, is asked again next time.
    key ??= fetchKey().then(
      (found) => {
        if (found !== SIGNED_OUT) return found;
        key = null;
        return null;
      },
      () => {
        key = null;
        return null;
      },
    );
    return key;
  };
  return {
    async checkPermission() {
      if (!browserSupportsPush() || !(await vapidKey())) return 'unsupported';
      return permissionOf(Notification.permission);
    },
    async requestPermission() {
      if (!browserSupportsPush() || !(await vapidKey())) return 'unsupported';
      return permissionOf(await Notification.requestPermission());
    },
    async register() {
      const publicKey = browserSupportsPush() ? await vapidKey() : null;
      if (!publicKey) throw new Error(UNAVAILABLE);
      const registration = await navigator.serviceWorker.register(SERVICE_WORKER_URL);
      await navigator.serviceWorker.ready;
      const subscription =
        (await registration.pushManager.getSubscription()) ??
        (await registration.pushManager.subscribe({
          userVisibleOnly: true,
          applicationServerKey: vapidKeyBytes(publicKey),
        }));
      return { token: JSON.stringify(subscription.toJSON()), platform: 'web' };
    },
    onNotificationTap(handler: (data: NotificationData) => void) {
      if (!browserSupportsPush()) return () => {};
      const onMessage = (event: MessageEvent) => {
        const message = event.data as { type?: unknown; data?: unknown } | null;
        if (message?.type !== TAP_MESSAGE || !message.data || typeof message.data !== 'object') return;
        const data = Object.fromEntries(
          Object.entries(message.data).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
        );
        handler(data);
      };
      navigator.serviceWorker.addEventListener('message', onMessage);
      return () => navigator.serviceWorker.removeEventListener('message', onMessage);
    },
  };
}
