import { z } from 'zod';

/**
 * A browser's Web Push subscription (`PushSubscription.toJSON()`), which the web app registers as its push token
 * (platform 'web'). Tokens of the other kinds are opaque strings (APNs/FCM registration tokens), never JSON.
 */
export interface WebPushSubscription {
  readonly endpoint: string;
  readonly keys: { readonly p256dh: string; readonly auth: string };
}

/**
 * The push services browsers subscribe with (Chrome and Edge via FCM, Firefox, Safari, Windows). The server POSTs
 * to a subscription's endpoint, so an endpoint elsewhere would let any user make the server call an address of
 * their choosing: only these hosts are accepted at registration.
 */
export const WEB_PUSH_SERVICE_HOSTS = [
  'fcm.googleapis.com',
  'push.services.mozilla.com',
  'push.apple.com',
  'notify.windows.com',
];

const base64url = z.string().regex(/^[A-Za-z0-9_-]+=*$/);
const subscriptionSchema = z.object({
  endpoint: z.url({ protocol: /^https$/ }).max(2048),
  // A P-256 public key (65 bytes) and a 16-byte auth secret, base64url.
  keys: z.object({ p256dh: base64url.min(86).max(90), auth: base64url.min(21).max(24) }),
});

/** Whether a push token is a Web Push subscription rather than an APNs/FCM registration token. */
export function isWebPushToken(token: string): boolean {
  return token.trimStart().startsWith('{');
}

/** The subscription in a token, or null when it is not one (not JSON, missing keys, not https). */
export function parseWebPushSubscription(token: string): WebPushSubscription | null {
  try {
    const parsed = subscriptionSchema.safeParse(JSON.parse(token));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** Whether the subscription's endpoint belongs to a known browser push service (see WEB_PUSH_SERVICE_HOSTS). */
export function isKnownPushService(subscription: WebPushSubscription): boolean {
  const host = new URL(subscription.endpoint).hostname;
  return WEB_PUSH_SERVICE_HOSTS.some((known) => host === known || host.endsWith(`.${known}`));
}
