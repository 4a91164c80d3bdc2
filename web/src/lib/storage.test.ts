import { beforeEach, describe, expect, it } from 'vitest';
import {
  adoptLegacyUserData,
  clearUserStorage,
  currentUserStorage,
  installStorage,
  STORAGE_KEYS,
  signedInUserId,
  userStorage,
} from './storage.ts';

describe('per-user storage', () => {
  let map: Map<string, string>;
  const signIn = (id: string) => map.set(STORAGE_KEYS.session, JSON.stringify({ user: { id } }));
  beforeEach(() => {
    map = new Map();
    installStorage({
      getItem: (k) => map.get(k) ?? null,
      setItem: (k, v) => void map.set(k, v),
      removeItem: (k) => void map.delete(k),
    });
  });

  it('keeps each user’s values under their own id, so one user’s flags never apply to another', () => {
    signIn('user-a');
    expect(signedInUserId()).toBe('user-a');
    currentUserStorage().setItem('tourSeen', 'true');
    currentUserStorage().writeJson('celebratedGoals', ['g1']);
    expect(map.get('stridestake.user.user-a.tour-seen')).toBe('true');
    signIn('user-b');
    expect(currentUserStorage().getItem('tourSeen')).toBeNull();
    expect(currentUserStorage().readJson('celebratedGoals', [])).toEqual([]);
    expect(userStorage('user-a').readJson('celebratedGoals', [])).toEqual(['g1']);
  });

  it('signed out (and not in demo mode) keeps nothing; a demo visitor has a namespace of their own', () => {
    currentUserStorage().setItem('gpsTracking', '{"isTracking":true}');
    expect(currentUserStorage().owner).toBeNull();
    expect(currentUserStorage().getItem('gpsTracking')).toBeNull();
    expect([...map.keys()]).toEqual([]);
    map.set(STORAGE_KEYS.demoMode, 'true');
    currentUserStorage().setItem('tourSeen', 'true');
    expect(map.get('stridestake.user.demo.tour-seen')).toBe('true');
  });

  it('sign-out empties every user’s namespace and keeps the device’s keys (session aside), the offline queue among them', () => {
    signIn('user-a');
    currentUserStorage().setItem('runTracks', '{"r1":{"fixes":[[51.5,-0.12,0]]}}');
    currentUserStorage().setItem('gpsTracking', '{"positions":[{"latitude":51.5}]}');
    signIn('user-b');
    currentUserStorage().setItem('distanceUnit', 'mi');
    map.set(STORAGE_KEYS.pendingRuns, '[{"userId":"user-a"}]');
    map.set(STORAGE_KEYS.permissionsOnboarded, '["user-a"]');
    map.set('stridestake.run-tracks', '{"old":1}');
    clearUserStorage();
    expect([...map.keys()].filter((k) => k.startsWith('stridestake.user'))).toEqual([]);
    expect(map.has('stridestake.run-tracks')).toBe(false);
    expect(map.get(STORAGE_KEYS.pendingRuns)).toBe('[{"userId":"user-a"}]');
    expect(map.get(STORAGE_KEYS.permissionsOnboarded)).toBe('["user-a"]');
  });

  it('hands what an earlier build kept for the whole device to the signed-in user, or drops it', () => {
    map.set('stridestake.tour-seen', 'true');
    map.set('stridestake.run-tracks', '{"r1":{}}');
    signIn('user-a');
    adoptLegacyUserData();
    expect(userStorage('user-a').getItem('tourSeen')).toBe('true');
    expect(userStorage('user-a').getItem('runTracks')).toBe('{"r1":{}}');
    expect(map.has('stridestake.tour-seen')).toBe(false);
    map.delete(STORAGE_KEYS.session);
    map.set('stridestake.gps-tracking', '{"positions":[]}');
    adoptLegacyUserData();
    expect(map.has('stridestake.gps-tracking')).toBe(false);
  });
});
