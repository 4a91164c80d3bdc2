import { Temporal } from 'temporal-polyfill';
import { BADGE_TYPES, type BadgeType } from '../badge/badge-type.ts';
import {
  CENTURY_KM,
  EARLY_BIRD_BEFORE_HOUR,
  EARLY_BIRD_FROM_HOUR,
  HALF_MARATHON_KM,
  QUALIFYING_RUN_KM,
} from './badge-definitions.ts';
import { addDays, dayOfWeekOf, localHourOf, mondayOf } from './dates.ts';
import { computeStreak, type WeekOutcome } from './streaks.ts';

/** A run as badge rules see it: its distance and when it started on the user's own wall clock. */
export interface RunFact {
  readonly runId: string;
  readonly distanceKm: number;
  /** Local start in the user's time zone, ISO 'YYYY-MM-DDTHH:mm[:ss]' (see `localStartOf`). */
  readonly localStart: string;
}

/** Everything the badge rules need to know about one user; facts only ever grow, so badges are never lost. */
export interface BadgeFacts {
  readonly runs: readonly RunFact[];
  readonly weekOutcomes: readonly WeekOutcome[];
}

/** A run's local start in a time zone, from its ISO instant (§3 users.timezone). */
export function localStartOf(startedAt: string, timeZone: string): string {
  return Temporal.Instant.from(startedAt).toZonedDateTimeISO(timeZone).toPlainDateTime().toString();
}

// Hundredths of a km / ten-thousandths for the half marathon: exact comparisons on 2-decimal distances.
const hundredths = (km: number) => Math.max(0, Math.round(km * 100));
const qualifying = (facts: BadgeFacts) => facts.runs.filter((r) => hundredths(r.distanceKm) >= QUALIFYING_RUN_KM * 100);
const localDates = (runs: readonly RunFact[]) => new Set(runs.map((r) => r.localStart.slice(0, 10)));
const longestStreak = (facts: BadgeFacts) => computeStreak(facts.weekOutcomes).longest;

function hasPerfectWeek(facts: BadgeFacts): boolean {
  const daysByWeek = new Map<string, Set<string>>();
  for (const date of localDates(qualifying(facts))) {
    const week = mondayOf(date);
    daysByWeek.set(week, (daysByWeek.get(week) ?? new Set()).add(date));
  }
  return [...daysByWeek.values()].some((days) => days.size === 7);
}

function hasFullWeekend(facts: BadgeFacts): boolean {
  const dates = localDates(qualifying(facts));
  return [...dates].some((d) => dayOfWeekOf(d) === 6 && dates.has(addDays(d, 1)));
}

function hasComeback(facts: BadgeFacts): boolean {
  // A completion in a week wins over a miss in the same week, as in the streak rules.
  const completed = new Set(facts.weekOutcomes.filter((o) => o.result === 'completed').map((o) => o.weekStart));
  return facts.weekOutcomes.some(
    (o) => o.result === 'missed' && !completed.has(o.weekStart) && completed.has(addDays(o.weekStart, 7)),
  );
}

/** Each badge's rule as a pure predicate over a user's facts (see BADGE_DEFINITIONS for the wording). */
export const BADGE_CRITERIA: Readonly<Record<BadgeType, (facts: BadgeFacts) => boolean>> = {
  first_run: (f) => f.runs.length > 0,
  first_goal: (f) => f.weekOutcomes.some((o) => o.result === 'completed'),
  streak_week_1: (f) => longestStreak(f) >= 1,
  streak_week_4: (f) => longestStreak(f) >= 4,
  streak_week_8: (f) => longestStreak(f) >= 8,
  distance_100: (f) => f.runs.reduce((sum, r) => sum + hundredths(r.distanceKm), 0) >= CENTURY_KM * 100,
  half_marathon: (f) => f.runs.some((r) => Math.round(r.distanceKm * 10_000) >= HALF_MARATHON_KM * 10_000),
  perfect_week: hasPerfectWeek,
  weekend_warrior: hasFullWeekend,
  early_bird: (f) =>
    qualifying(f).some((r) => {
      const hour = localHourOf(r.localStart);
      return hour >= EARLY_BIRD_FROM_HOUR && hour < EARLY_BIRD_BEFORE_HOUR;
    }),
  halloween_run: (f) => qualifying(f).some((r) => r.localStart.slice(5, 10) === '10-31'),
  comeback_kid: hasComeback,
};

/** The badge types whose criteria the facts meet and that were not earned before, in display order. */
export function badgesNewlyEarned(facts: BadgeFacts, alreadyEarned: Iterable<BadgeType>): readonly BadgeType[] {
  const earned = new Set(alreadyEarned);
  return BADGE_TYPES.filter((type) => !earned.has(type) && BADGE_CRITERIA[type](facts));
}
