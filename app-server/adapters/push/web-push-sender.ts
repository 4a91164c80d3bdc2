import type { Agent } from 'node:https';
import webpush from 'web-push';
import type { PushOutcome, PushSender } from './push-sender.ts';
import { parseWebPushSubscription } from './web-push-subscription.ts';

/** The VAPID key pair and contact the push services see (config WEB_PUSH_VAPID_*, WEB_PUSH_SUBJECT). */
export interface VapidKeys {
  readonly publicKey: string;
  readonly privateKey: string;
  /** A mailto: or https: contact for the push service's operators. */
  readonly subject: string;
}

/** A reminder older than a day is no use: the push service may drop it rather than deliver it late. */
const TTL_SECONDS = 24 * 60 * 60;
const TIMEOUT_MS = 10_000;

/** Push services answer these when the subscription has expired or was unsubscribed: forget the token. */
const GONE = new Set([404, 410]);

/**
 * A PushSender over the Web Push protocol (RFC 8030) with VAPID (RFC 8292), through the `web-push` library: the
 * payload `{ title, body, data }` is encrypted to the browser's keys (aes128gcm) and POSTed to the subscription's
 * push service; the service worker (web/public/push-sw.js) shows it. `agent` is for tests (a local push service).
 */
export function createWebPushSender(keys: VapidKeys, options: { agent?: Agent } = {}): PushSender {
  const vapidDetails = { subject: keys.subject, publicKey: keys.publicKey, privateKey: keys.privateKey };
  return {
    kind: 'web_push',
    send(messages) {
      return Promise.all(
        messages.map(async (m): Promise<PushOutcome> => {
          const subscription = parseWebPushSubscription(m.token);
          if (!subscription) return 'invalid_token';
          const payload = JSON.stringify({ title: m.title, body: m.body, data: m.data });
          try {
            await webpush.sendNotification(subscription, payload, {
              vapidDetails,
              TTL: TTL_SECONDS,
              timeout: TIMEOUT_MS,
              ...(options.agent ? { agent: options.agent } : {}),
            });
            return 'sent';
          } catch (error) {
            return error instanceof webpush.WebPushError && GONE.has(error.statusCode) ? 'invalid_token' : 'failed';
          }
        }),
      );
    },
  };
}
