import { describe, expect, it } from 'vitest';
import { type KeyValueStorage, STORAGE_KEYS } from '../storage.ts';
import { isOnboarded, markOnboarded } from './onboarding-state.ts';

function memoryStorage(): KeyValueStorage {
  const map = new Map<string, string>();
  return {
    getItem: (k) => map.get(k) ?? null,
    setItem: (k, v) => void map.set(k, v),
    removeItem: (k) => void map.delete(k),
  };
}

describe('permissions onboarding, remembered per user (§4)', () => {
  it('is remembered for the user who finished it, not for another account on the same device', () => {
    const storage = memoryStorage();
    expect(isOnboarded(storage, 'u1')).toBe(false);
    markOnboarded(storage, 'u1');
    markOnboarded(storage, 'u1');
    expect(isOnboarded(storage, 'u1')).toBe(true);
    expect(isOnboarded(storage, 'u2')).toBe(false);
    markOnboarded(storage, 'u2');
    expect(JSON.parse(storage.getItem(STORAGE_KEYS.permissionsOnboarded) ?? '')).toEqual(['u1', 'u2']);
  });

  it('treats an unreadable record as nobody onboarded', () => {
    const storage = memoryStorage();
    storage.setItem(STORAGE_KEYS.permissionsOnboarded, 'oops');
    expect(isOnboarded(storage, 'u1')).toBe(false);
    markOnboarded(storage, 'u1');
    expect(isOnboarded(storage, 'u1')).toBe(true);
  });
});
