import { api } from '../api.ts';
import { reportError } from '../error-reporting/index.ts';
import { storage } from '../storage.ts';
import { platform } from './index.ts';
import type { PushPermission, PushRegistration } from './push.ts';
import { type PushSyncOutcome, syncPushToken } from './push-registration.ts';

function sendToken(registration: PushRegistration): Promise<void> {
  return api('/notifications/register', { method: 'POST', body: registration }).then(() => undefined);
}

/** The push step of a sign-in on this platform (see syncPushToken): registers the device when push is allowed. */
export function syncPush(): Promise<PushSyncOutcome> {
  return syncPushToken({
    push: platform().push,
    storage,
    send: sendToken,
    report: (error, area) => reportError(error, { area }),
  });
}

/**
 * Asks the user to allow push on this device (the browser's or the OS's prompt), and registers the device when
 * they do. Answers the permission as it now stands.
 */
export async function enablePush(): Promise<PushPermission> {
  const permission = await platform().push.requestPermission();
  if (permission === 'granted') await syncPush();
  return permission;
}
