import type { BadgeType } from '../badge/badge-type.ts';

/** The icons the app can draw for a badge (§3). */
export type BadgeIcon =
  | 'Trophy'
  | 'Flame'
  | 'Target'
  | 'Star'
  | 'Award'
  | 'Calendar'
  | 'Ghost'
  | 'TrendingUp'
  | 'Sunrise';

/** A badge as GET /badges/definitions and the XP guide show it; `criterion` says exactly how it is earned. */
export interface BadgeDefinition {
  readonly badge_type: BadgeType;
  readonly name: string;
  readonly description: string;
  readonly icon: BadgeIcon;
  /** A hex colour for the badge medallion. */
  readonly color: string;
  readonly criterion: string;
}

/** Runs used by the day- and time-based badges must be at least this long, so a 60-second jog cannot farm them. */
export const QUALIFYING_RUN_KM = 1;
/** A single run at least this long earns half_marathon (the official half-marathon distance). */
export const HALF_MARATHON_KM = 21.0975;
/** Lifetime distance that earns distance_100. */
export const CENTURY_KM = 100;
/** Early-bird window in local time: from 04:00 (so a run after a late night out does not count) to before 07:00. */
export const EARLY_BIRD_FROM_HOUR = 4;
export const EARLY_BIRD_BEFORE_HOUR = 7;

/** The 12 badge definitions, in display order. */
export const BADGE_DEFINITIONS: readonly BadgeDefinition[] = [
  {
    badge_type: 'first_run',
    name: 'First Steps',
    description: 'Logged your very first run.',
    icon: 'Star',
    color: '#3B82F6',
    criterion: 'Log any run, tracked by GPS or synced from a connected app.',
  },
  {
    badge_type: 'first_goal',
    name: 'Goal Getter',
    description: 'Completed your first weekly goal.',
    icon: 'Trophy',
    color: '#F59E0B',
    criterion: 'Reach 100% of a weekly goal.',
  },
  {
    badge_type: 'streak_week_1',
    name: 'Streak Starter',
    description: 'Started a weekly streak.',
    icon: 'Flame',
    color: '#FB923C',
    criterion: 'Complete your weekly goal: a streak of 1 week.',
  },
  {
    badge_type: 'streak_week_4',
    name: 'Month on Fire',
    description: 'Kept your streak alive for 4 weeks.',
    icon: 'Flame',
    color: '#F97316',
    criterion: 'Complete your goal 4 weeks in a row. A missed week, or a week without a goal, restarts the count.',
  },
  {
    badge_type: 'streak_week_8',
    name: 'Unstoppable',
    description: 'Kept your streak alive for 8 weeks.',
    icon: 'Flame',
    color: '#DC2626',
    criterion: 'Complete your goal 8 weeks in a row. A missed week, or a week without a goal, restarts the count.',
  },
  {
    badge_type: 'distance_100',
    name: 'Century Club',
    description: 'Ran 100 km in total.',
    icon: 'Target',
    color: '#10B981',
    criterion: 'Reach 100 km across all your runs.',
  },
  {
    badge_type: 'half_marathon',
    name: 'Half Marathoner',
    description: 'Ran a half-marathon distance in one go.',
    icon: 'Award',
    color: '#8B5CF6',
    criterion: 'Complete a single run of at least 21.0975 km.',
  },
  {
    badge_type: 'perfect_week',
    name: 'Perfect Week',
    description: 'Ran every single day of a week.',
    icon: 'Calendar',
    color: '#14B8A6',
    criterion: 'Run at least 1 km on each of the 7 days from Monday to Sunday of one week, in your time zone.',
  },
  {
    badge_type: 'weekend_warrior',
    name: 'Weekend Warrior',
    description: 'Ran on both days of a weekend.',
    icon: 'Calendar',
    color: '#6366F1',
    criterion: 'Run at least 1 km on a Saturday and on the Sunday right after it, in your time zone.',
  },
  {
    badge_type: 'early_bird',
    name: 'Early Bird',
    description: 'Out the door before 7 AM.',
    icon: 'Sunrise',
    color: '#FBBF24',
    criterion: 'Start a run of at least 1 km between 4:00 and 6:59 AM in your time zone.',
  },
  {
    badge_type: 'halloween_run',
    name: 'Spooky Strider',
    description: 'Went for a run on Halloween.',
    icon: 'Ghost',
    color: '#EA580C',
    criterion: 'Run at least 1 km on 31 October in your time zone.',
  },
  {
    badge_type: 'comeback_kid',
    name: 'Comeback Kid',
    description: 'Bounced back right after a missed week.',
    icon: 'TrendingUp',
    color: '#EC4899',
    criterion: 'Complete your weekly goal in the week right after a missed (or canceled) goal.',
  },
];

/** The definition of one badge type. */
export function badgeDefinition(type: BadgeType): BadgeDefinition {
  return BADGE_DEFINITIONS.find((d) => d.badge_type === type)!;
}
