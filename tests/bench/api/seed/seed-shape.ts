import { Temporal } from 'temporal-polyfill';
import { addWeeks, weekStartOf } from '../../../../domain/shared/week.ts';

/**
 * How big a seeded history is. Both shapes give every user the same kind of weeks (a goal, 1–4 GPS runs, group
 * reactions), so a user's own reads ask for the same amount of data in both: what changes between them is how much
 * of everybody else's data lies in the log and the tables, which is what "flat as the log grows" is about.
 */
export interface SeedShape {
  /** Names the cached template database. */
  readonly name: string;
  readonly users: number;
  readonly groups: number;
  /** Weeks of history, the current one included. */
  readonly weeks: number;
  /** Seed of the deterministic choices (zones, goals, runs, reactions). */
  readonly seed: number;
}

/** ~11,000 events: 100 users, 5 groups. */
export const SMALL_LOG: SeedShape = { name: 'log10k', users: 100, groups: 5, weeks: 8, seed: 14 };
/** ~1,000,000 events: 10,000 users, 50 groups, 8 weeks (the shape; 7 weeks made 890k). */
export const LARGE_LOG: SeedShape = { name: 'log1m', users: 10_000, groups: 50, weeks: 8, seed: 14 };

/** Where seeded users live: zones on four continents, each with a city to run in. */
export const HOMES = [
  { timeZone: 'America/New_York', latitude: 40.78, longitude: -73.97 },
  { timeZone: 'Europe/London', latitude: 51.5, longitude: -0.12 },
  { timeZone: 'Europe/Paris', latitude: 48.85, longitude: 2.35 },
  { timeZone: 'America/Los_Angeles', latitude: 34.05, longitude: -118.24 },
  { timeZone: 'Asia/Tokyo', latitude: 35.68, longitude: 139.69 },
  { timeZone: 'Australia/Sydney', latitude: -33.87, longitude: 151.21 },
  { timeZone: 'America/Chicago', latitude: 41.88, longitude: -87.63 },
  { timeZone: 'Europe/Berlin', latitude: 52.52, longitude: 13.4 },
] as const;

/** The home of user `index`. */
export const homeOf = (index: number) => HOMES[index % HOMES.length]!;

/** A group's size: 20 for every even group (the bench reads those), 20–28 for the others. */
export function groupSize(group: number): number {
  return group % 2 === 0 ? 20 : 20 + (group % 9);
}

/**
 * The user indices of a group. Windows of consecutive users that overlap (a step of 15 users), so many members are
 * in two groups and the owner (first member) of one is a member of the previous.
 */
export function groupMembers(shape: SeedShape, group: number): number[] {
  const start = (group * 15) % shape.users;
  return Array.from({ length: Math.min(groupSize(group), shape.users) }, (_, k) => (start + k) % shape.users);
}

/** The Mondays (YYYY-MM-DD, UTC) of the seeded weeks, oldest first; the last is the week of `now`. */
export function seededMondays(shape: SeedShape, now: Date): string[] {
  const current = weekStartOf(Temporal.Instant.fromEpochMilliseconds(now.getTime()), 'UTC');
  return Array.from({ length: shape.weeks }, (_, k) => addWeeks(current, k - shape.weeks + 1));
}
