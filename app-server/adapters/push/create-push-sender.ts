import type { Config } from '../../config.ts';
import { fcmPushSenderFromServiceAccount } from './fcm-push-sender.ts';
import { inAppOnlyPushSender, type PushSender } from './push-sender.ts';

/** FCM when FIREBASE_SERVICE_ACCOUNT is set, else in-app notifications only (development, tests). */
export function createPushSender(config: Pick<Config, 'FIREBASE_SERVICE_ACCOUNT'>): PushSender {
  return config.FIREBASE_SERVICE_ACCOUNT ? fcmPushSenderFromServiceAccount(config.FIREBASE_SERVICE_ACCOUNT) : inAppOnlyPushSender;
}
