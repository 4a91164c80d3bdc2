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
  });

  it('is unseen until marked, then remembered under its storage key', () => {
    expect(hasSeenTour()).toBe(false);
    markTourSeen();
    expect(hasSeenTour()).toBe(true);
    expect(map.get(STORAGE_KEYS.tourSeen)).toBe('true');
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
