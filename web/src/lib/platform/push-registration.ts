import { type KeyValueStorage, STORAGE_KEYS } from '../storage.ts';
import type { PushMessaging, PushRegistration } from './push.ts';

/** What a sign-in's push step ended with. */
export type PushSyncOutcome = 'registered' | 'pending' | 'no-token' | 'unsupported' | 'denied' | 'prompt';

export interface PushSyncDeps {
  readonly push: PushMessaging;
  readonly storage: KeyValueStorage;
  /** POST /notifications/register {token, platform}; rejects when the token was not saved. */
  readonly send: (registration: PushRegistration) => Promise<void>;
  /** §8: push registration and token save failures go to the error service (the token stays pending). */
  readonly report?: (error: unknown, area: 'push-registration' | 'push-token-save') => void;
}

function isRegistration(value: unknown): value is PushRegistration {
  if (!value || typeof value !== 'object') return false;
  const { token, platform } = value as Record<string, unknown>;
  return (
    typeof token === 'string' && token !== '' && (platform === 'ios' || platform === 'android' || platform === 'web')
  );
}

/** The token a previous sign-in could not save, if any. */
export function pendingPushToken(storage: KeyValueStorage): PushRegistration | null {
  const raw = storage.getItem(STORAGE_KEYS.pendingPushToken);
  if (raw === null) return null;
  try {
    const parsed: unknown = JSON.parse(raw);
    return isRegistration(parsed) ? parsed : null;
  } catch {
    return null;
  }
}

/**
 * The push step of a sign-in (§4 Push token): when push is allowed, register for a fresh token; send it (or, when
 * the platform gives none this time, the token a previous sign-in left pending) to the API. A token the API did
 * not save is kept locally as pending, to be retried on the next sign-in; a saved one clears the pending slot.
 * Never asks the user: the permissions onboarding does that.
 */
export async function syncPushToken({ push, storage, send, report }: PushSyncDeps): Promise<PushSyncOutcome> {
  const pending = pendingPushToken(storage);
  const permission = await push.checkPermission().catch((): 'unsupported' => 'unsupported');
  let fresh: PushRegistration | null = null;
  if (permission === 'granted')
    fresh = await push.register().catch((error: unknown) => {
      report?.(error, 'push-registration');
      return null;
    });
  // A fresh token supersedes an older pending one (tokens rotate; the server drops dead ones on send).
  const registration = fresh ?? pending;
  if (!registration) return permission === 'granted' ? 'no-token' : permission;
  try {
    await send(registration);
  } catch (error) {
    report?.(error, 'push-token-save');
    storage.setItem(STORAGE_KEYS.pendingPushToken, JSON.stringify(registration));
    return 'pending';
  }
  storage.removeItem(STORAGE_KEYS.pendingPushToken);
  storage.setItem(STORAGE_KEYS.registeredPushToken, JSON.stringify(registration));
  return 'registered';
}

/**
 * The sign-out step: the API unregisters this device's token (DELETE /notifications/unregister), so the account
 * stops notifying a device it left and the token is free for the next account that signs in here (the API refuses
 * to move a token another account holds). Best effort: a failure must not keep the user signed in.
 */
export async function releasePushToken(
  storage: KeyValueStorage,
  unregister: (token: string) => Promise<void>,
): Promise<'released' | 'none' | 'failed'> {
  const raw = storage.getItem(STORAGE_KEYS.registeredPushToken);
  if (raw === null) return 'none';
  let token: string | null = null;
  try {
    const parsed: unknown = JSON.parse(raw);
    token = isRegistration(parsed) ? parsed.token : null;
  } catch {
    token = null;
  }
  storage.removeItem(STORAGE_KEYS.registeredPushToken);
  if (token === null) return 'none';
  try {
    await unregister(token);
    return 'released';
  } catch {
    return 'failed';
  }
}
