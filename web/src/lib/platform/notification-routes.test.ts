import { describe, expect, it } from 'vitest';
import { routeForNotification } from './notification-routes.ts';

describe('notification tap routing (§2)', () => {
  it('routes each reminder type to its screen', () => {
    expect(routeForNotification({ type: 'upcoming_goal', url: '/goals' })).toBe('/goals');
    expect(routeForNotification({ type: 'midweek_update', url: '/profile?tab=stakes' })).toBe('/profile?tab=stakes');
    expect(routeForNotification({ type: 'ending_soon', groupId: 'g-42', url: '/groups/g-42' })).toBe('/groups/g-42');
  });

  it('routes by type even when the payload has no url', () => {
    expect(routeForNotification({ type: 'upcoming_goal' })).toBe('/goals');
    expect(routeForNotification({ type: 'midweek_update' })).toBe('/profile?tab=stakes');
    expect(routeForNotification({ type: 'ending_soon', groupId: 'abc' })).toBe('/groups/abc');
  });

  it('type wins over a url naming another screen', () => {
    expect(routeForNotification({ type: 'upcoming_goal', url: '/run' })).toBe('/goals');
  });

  it('escapes a group id so it stays one path segment', () => {
    expect(routeForNotification({ type: 'ending_soon', groupId: 'a/b?c' })).toBe('/groups/a%2Fb%3Fc');
  });

  it('an ending_soon for a runner in no group follows the server url, else /goals', () => {
    expect(routeForNotification({ type: 'ending_soon', url: '/goals' })).toBe('/goals');
    expect(routeForNotification({ type: 'ending_soon' })).toBe('/goals');
  });

  it('an unknown type follows an in-app url, never another origin', () => {
    expect(routeForNotification({ type: 'test', url: '/xp-guide' })).toBe('/xp-guide');
    expect(routeForNotification({ type: 'test' })).toBe('/app');
    expect(routeForNotification({})).toBe('/app');
    for (const url of [
      'https://evil.example',
      '//evil.example',
      '/\\evil.example',
      'javascript:alert(1)',
      '/goals/../login',
    ]) {
      expect(routeForNotification({ type: 'something_new', url })).toBe('/app');
      expect(routeForNotification({ type: 'ending_soon', url })).toBe('/goals');
    }
  });
});
