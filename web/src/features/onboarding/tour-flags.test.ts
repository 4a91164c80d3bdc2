import { beforeEach, describe, expect, it } from 'vitest';
import { STORAGE_KEYS, installStorage } from '../../lib/storage.ts';
import { TOUR_SLIDES, hasSeenTour, isLastSlide, markTourSeen, moveSlide } from './tour-flags.ts';

describe('onboarding tour flags', () => {
  let map: Map<string, string>;
  beforeEach(() => {
    map = new Map();
    installStorage({
      getItem: (k) => map.get(k) ?? null,
      setItem: (k, v) => void map.set(k, v),
      removeItem: (k) => void map.delete(k),
    });
    map.set(STORAGE_KEYS.session, JSON.stringify({ user: { id: 'user-a' } }));
  });

  it('is unseen until marked, then remembered for the signed-in user only', () => {
    expect(hasSeenTour()).toBe(false);
    markTourSeen();
    expect(hasSeenTour()).toBe(true);
    expect(map.get('stridestake.user.user-a.tour-seen')).toBe('true');
    map.set(STORAGE_KEYS.session, JSON.stringify({ user: { id: 'user-b' } }));
    expect(hasSeenTour()).toBe(false);
  });

  it('has the four slides of the spec and stays inside the deck', () => {
    expect(TOUR_SLIDES.map((s) => s.title)).toEqual([
      'Welcome',
      'Put Money on the Line',
      'Run with Friends',
      'Track Your Progress',
    ]);
    expect(moveSlide(0, 'back')).toBe(0);
    expect(moveSlide(0, 'next')).toBe(1);
    expect(moveSlide(3, 'next')).toBe(3);
    expect(isLastSlide(2)).toBe(false);
    expect(isLastSlide(3)).toBe(true);
  });
});
