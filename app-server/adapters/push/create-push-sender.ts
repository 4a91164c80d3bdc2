import { type Config, DEFAULT_WEB_PUSH_SUBJECT } from '../../config.ts';
import { fcmPushSenderFromServiceAccount } from './fcm-push-sender.ts';
import { createPushRouter } from './push-router.ts';
import { inAppOnlyPushSender, type PushSender } from './push-sender.ts';
import { createWebPushSender } from './web-push-sender.ts';

type PushConfig = Partial<
  Pick<
    Config,
    'FIREBASE_SERVICE_ACCOUNT' | 'WEB_PUSH_VAPID_PUBLIC_KEY' | 'WEB_PUSH_VAPID_PRIVATE_KEY' | 'WEB_PUSH_SUBJECT'
  >
>;

/**
 * FCM when FIREBASE_SERVICE_ACCOUNT is set (native apps), Web Push when the VAPID keys are set (the web app), both
 * when both are; with neither, notifications are in-app only (development, tests). The in-app row is written either
 * way: push is a delivery on top of it.
 */
export function createPushSender(config: PushConfig): PushSender {
  const fcm = config.FIREBASE_SERVICE_ACCOUNT ? fcmPushSenderFromServiceAccount(config.FIREBASE_SERVICE_ACCOUNT) : null;
  const webPush =
    config.WEB_PUSH_VAPID_PUBLIC_KEY && config.WEB_PUSH_VAPID_PRIVATE_KEY
      ? createWebPushSender({
          publicKey: config.WEB_PUSH_VAPID_PUBLIC_KEY,
          privateKey: config.WEB_PUSH_VAPID_PRIVATE_KEY,
          subject: config.WEB_PUSH_SUBJECT ?? DEFAULT_WEB_PUSH_SUBJECT,
        })
      : null;
  // Routed even with one of them: a token only the other could reach is left alone, not reported dead.
  return fcm || webPush ? createPushRouter({ fcm, webPush }) : inAppOnlyPushSender;
}
