import type { PluginListenerHandle } from '@capacitor/core';
import { PushNotifications, type PushNotificationsPlugin } from '@capacitor/push-notifications';
import type {
  NotificationData,
  PushMessaging,
  PushPermission,
  PushRegistration,
} from '../../web/src/lib/platform/push.ts';

/** The plugin calls this implementation makes (a test passes a fake). */
export type PushPluginLike = Pick<
  PushNotificationsPlugin,
  'checkPermissions' | 'requestPermissions' | 'register' | 'addListener'
>;

/** How long APNs/FCM may take to hand out a token before registration counts as failed. */
export const REGISTRATION_TIMEOUT_MS = 20_000;

function permissionOf(state: string): PushPermission {
  if (state === 'granted') return 'granted';
  if (state === 'denied') return 'denied';
  return 'prompt';
}

/** A notification's data as strings (FCM data values are strings; APNs custom keys may not be). */
function dataOf(raw: unknown): NotificationData {
  const data: Record<string, string> = {};
  if (raw && typeof raw === 'object') {
    for (const [key, value] of Object.entries(raw)) {
      if (typeof value === 'string') data[key] = value;
      else if (typeof value === 'number' || typeof value === 'boolean') data[key] = String(value);
    }
  }
  return data;
}

function removeLater(handle: Promise<PluginListenerHandle>): void {
  handle.then((h) => h.remove()).catch(() => {});
}

/** Push through @capacitor/push-notifications (APNs on iOS, FCM on Android). */
export function capacitorPush(platform: 'ios' | 'android', plugin: PushPluginLike = PushNotifications): PushMessaging {
  return {
    async checkPermission() {
      return permissionOf((await plugin.checkPermissions()).receive);
    },
    async requestPermission() {
      return permissionOf((await plugin.requestPermissions()).receive);
    },
    register() {
      return new Promise<PushRegistration>((resolve, reject) => {
        let settled = false;
        const handles: Promise<PluginListenerHandle>[] = [];
        const settle = (finish: () => void) => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          handles.forEach(removeLater);
          finish();
        };
        const timer = setTimeout(
          () => settle(() => reject(new Error('Push registration timed out'))),
          REGISTRATION_TIMEOUT_MS,
        );
        handles.push(
          plugin.addListener('registration', (token) => settle(() => resolve({ token: token.value, platform }))),
          plugin.addListener('registrationError', (error) => settle(() => reject(new Error(error.error)))),
        );
        plugin.register().catch((error: unknown) => settle(() => reject(error)));
      });
    },
    onNotificationTap(handler) {
      // The plugin keeps a tap that launched the app until a listener is added, so this catches cold starts too.
      const handle = plugin.addListener('pushNotificationActionPerformed', (action) =>
        handler(dataOf(action.notification.data)),
      );
      return () => removeLater(handle);
    },
  };
}
