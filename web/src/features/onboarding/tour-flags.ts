import { currentUserStorage } from '../../lib/storage.ts';

/** §9: the tour appears about 1 s after the first dashboard load. */
export const TOUR_DELAY_MS = 1_000;

/** The four slides of §2, in order. */
export const TOUR_SLIDES = [
  {
    title: 'Welcome',
    body: 'StrideStake keeps you running: set a weekly goal, Monday to Sunday, by distance or number of runs.',
  },
  {
    title: 'Put Money on the Line',
    body: 'Optionally stake $5 to $100. Hit your goal and the hold is released; miss it and 80% goes to a charity you choose.',
  },
  {
    title: 'Run with Friends',
    body: 'Create or join a group with an invite code, cheer each other on in the feed and take on team challenges.',
  },
  {
    title: 'Track Your Progress',
    body: 'Log runs with GPS or a connected app, build your streak, earn XP and badges, and level up.',
  },
] as const;

/** Whether the signed-in user already saw the tour on this device (§4: a local flag, the user's own). */
export const hasSeenTour = (): boolean => currentUserStorage().getItem('tourSeen') === 'true';

/** Remembers that the tour was seen, closed or finished. */
export const markTourSeen = (): void => currentUserStorage().setItem('tourSeen', 'true');

/** The slide after a Back or Next press, kept inside the deck. */
export function moveSlide(index: number, direction: 'back' | 'next'): number {
  const next = direction === 'next' ? index + 1 : index - 1;
  return Math.min(Math.max(next, 0), TOUR_SLIDES.length - 1);
}

/** The last slide's forward button reads Get Started and ends the tour. */
export const isLastSlide = (index: number): boolean => index >= TOUR_SLIDES.length - 1;
