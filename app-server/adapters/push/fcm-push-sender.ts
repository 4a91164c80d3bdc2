import { cert, getApps, initializeApp } from 'firebase-admin/app';
import { getMessaging, type Messaging } from 'firebase-admin/messaging';
import type { PushMessage, PushOutcome, PushSender } from './push-sender.ts';

/** The part of firebase-admin's Messaging this adapter uses; tests inject a fake. */
export type FcmMessagingClient = Pick<Messaging, 'sendEach'>;

/** FCM error codes that mean the token will never work again (app uninstalled, token rotated or malformed). */
const DEAD_TOKEN_CODES = new Set([
  'messaging/registration-token-not-registered',
  'messaging/invalid-registration-token',
]);

// sendEach takes at most 500 messages per call.
const BATCH = 500;

/** A PushSender over Firebase Cloud Messaging. */
export function createFcmPushSender(messaging: FcmMessagingClient): PushSender {
  return {
    kind: 'fcm',
    async send(messages) {
      const outcomes: PushOutcome[] = [];
      for (let i = 0; i < messages.length; i += BATCH) {
        const chunk = messages.slice(i, i + BATCH);
        try {
          const result = await messaging.sendEach(chunk.map(toFcm));
          for (const response of result.responses) {
            if (response.success) outcomes.push('sent');
            else outcomes.push(DEAD_TOKEN_CODES.has(response.error?.code ?? '') ? 'invalid_token' : 'failed');
          }
        } catch {
          // The whole call failed (network, credentials): nothing is known to be delivered; the caller may retry.
          outcomes.push(...chunk.map(() => 'failed' as const));
        }
      }
      return outcomes;
    },
  };
}

function toFcm(m: PushMessage) {
  return { token: m.token, notification: { title: m.title, body: m.body }, data: { ...m.data } };
}

/** FCM from a service-account JSON (config FIREBASE_SERVICE_ACCOUNT); one named app per process. */
export function fcmPushSenderFromServiceAccount(serviceAccountJson: string): PushSender {
  const name = 'stridestake-push';
  const app =
    getApps().find((a) => a.name === name) ?? initializeApp({ credential: cert(JSON.parse(serviceAccountJson)) }, name);
  return createFcmPushSender(getMessaging(app));
}
