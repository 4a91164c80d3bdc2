import { type KeyValueStorage, STORAGE_KEYS } from '../storage.ts';

function onboardedUsers(storage: KeyValueStorage): string[] {
  try {
    const parsed: unknown = JSON.parse(storage.getItem(STORAGE_KEYS.permissionsOnboarded) ?? '[]');
    return Array.isArray(parsed) ? parsed.filter((id): id is string => typeof id === 'string') : [];
  } catch {
    return [];
  }
}

/** Whether this user finished (or dismissed) the permissions onboarding on this device (§4: remembered per user). */
export function isOnboarded(storage: KeyValueStorage, userId: string): boolean {
  return onboardedUsers(storage).includes(userId);
}

/** Remembers that this user is done with the permissions onboarding. */
export function markOnboarded(storage: KeyValueStorage, userId: string): void {
  const users = onboardedUsers(storage);
  if (!users.includes(userId)) storage.setItem(STORAGE_KEYS.permissionsOnboarded, JSON.stringify([...users, userId]));
}
