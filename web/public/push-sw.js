/*
 * StrideStake's Web Push handlers: show Web Push notifications and route taps. The app's service worker (sw.js, built
 * from web/src/sw.ts: the offline app shell) imports this file, so one worker at scope `/` does both; registered
 * alone (development, where Vite builds no worker) it does push only. The server sends `{ title, body, data }` (app-server/adapters/
 * push/web-push-sender.ts); `data.url` is the in-app route of the notification.
 */
const TAP_MESSAGE = 'stridestake-notification-tap';

self.addEventListener('push', (event) => {
  let message = { title: 'StrideStake', body: '', data: {} };
  try {
    message = { ...message, ...event.data.json() };
  } catch {
    // A push without a JSON payload still tells the user something happened.
  }
  event.waitUntil(self.registration.showNotification(message.title, { body: message.body, data: message.data }));
});

/** An in-app path only: never a scheme or `//host`, which would leave the app. */
function appPath(url) {
  return typeof url === 'string' && url.startsWith('/') && !url.startsWith('//') && !url.startsWith('/\\')
    ? url
    : '/app';
}

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const data = event.notification.data || {};
  event.waitUntil(
    (async () => {
      const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
      const open = windows.find((client) => new URL(client.url).origin === self.location.origin);
      if (open) {
        // The open app routes the tap itself (lib/platform/notification-routes.ts), as a native tap would.
        open.postMessage({ type: TAP_MESSAGE, data });
        await open.focus();
        return;
      }
      await self.clients.openWindow(appPath(data.url));
    })(),
  );
});
