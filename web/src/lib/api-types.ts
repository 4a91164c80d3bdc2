/**
 * The shapes the product API answers (§3, as served by app-server/http/routes). Written out here rather than
 * inferred from AppType so the web build type-checks without pulling the server's dependency graph in; the demo
 * backend answers the same shapes.
 */
import type { GoalType } from '../../../domain/goal/target.ts';

export type GoalStatus = 'active' | 'upcoming' | 'completed' | 'missed' | 'canceled';

export interface Goal {
  readonly id: string;
  readonly type: GoalType;
  readonly target_value: number;
  readonly status: GoalStatus;
  readonly progress: number;
  readonly percentage: number;
  readonly message: string;
  readonly period_start: string;
  readonly period_end: string;
  readonly time_zone: string;
  readonly stake_amount_cents: number;
  readonly charity_id: string | null;
  readonly days_left: number | null;
  readonly created_at: string | null;
  readonly completed_at: string | null;
}

/** A goal in the history list, where progress is `{ current, percentage }` (§3). */
export interface GoalHistoryItem extends Omit<Goal, 'progress'> {
  readonly progress: { readonly current: number; readonly percentage: number };
}

export interface Profile {
  readonly id: string;
  readonly email: string | null;
  readonly display_name: string;
  readonly timezone: string;
  readonly level: number;
  readonly tier: string;
  readonly total_xp: number;
  readonly avatar_url: string | null;
}

export interface XpInfo {
  readonly total_xp: number;
  readonly level: number;
  readonly level_label: string;
  readonly tier: string;
  readonly xp_into_level: number;
  readonly xp_for_level: number;
  readonly xp_to_next_level: number;
}

export interface Streak {
  readonly current_streak: number;
  readonly longest_streak: number;
  readonly last_completed_week: string | null;
}

export interface Run {
  readonly id: string;
  readonly started_at: string;
  readonly distance_km: number;
  readonly duration_sec: number;
  readonly pace_sec_per_km: number | null;
  readonly source: string;
  readonly notes: string | null;
}

export interface GpsPositionJson {
  readonly latitude: number;
  readonly longitude: number;
  readonly timestamp: number;
  readonly accuracy?: number;
}

export type ReactionEmoji = 'thumbs_up' | 'clap' | 'fire';

/** Counts of the three kinds, and who reacted with what (absent in older demo data). */
export interface FeedReactions {
  readonly thumbs_up: number;
  readonly clap: number;
  readonly fire: number;
  readonly reactions?: readonly { readonly user_id: string; readonly emoji: ReactionEmoji }[];
}

export type FeedEventType = 'run_completed' | 'stake_created' | 'stake_settled' | 'badge_earned';

export interface FeedEvent {
  readonly id: string;
  readonly user_id: string;
  readonly group_id: string | null;
  readonly event_type: FeedEventType;
  readonly event_data: Record<string, unknown>;
  readonly created_at: string;
  readonly display_name: string;
  readonly reactions: FeedReactions;
}

export interface Badge {
  readonly id: string;
  readonly badge_type: string;
  readonly earned_at: string;
  readonly celebrated_at: string | null;
  readonly name: string;
  readonly description: string;
  readonly icon: string;
  readonly color: string;
}

export interface Stake {
  readonly id: string;
  readonly goal_id: string;
  readonly week_start: string;
  readonly amount_cents: number;
  readonly donation_amount_cents: number | null;
  readonly charity: { readonly id: string; readonly name: string | null } | null;
  readonly status: string;
  readonly label: string;
  readonly created_at: string;
}

export interface Charity {
  readonly id: string;
  readonly name: string;
  readonly description: string | null;
  readonly logo_url: string | null;
}

export interface GroupMember {
  readonly user_id: string;
  readonly role: 'owner' | 'member';
  readonly joined_at: string;
  readonly display_name: string;
}

export interface Group {
  readonly id: string;
  readonly name: string;
  readonly owner_user_id: string;
  readonly member_count: number;
  readonly role: 'owner' | 'member';
  readonly invite_code?: string;
  readonly members: readonly GroupMember[];
}

export interface LeaderboardLine {
  readonly rank: number;
  readonly user_id: string;
  readonly display_name: string;
  readonly role: string;
  readonly level: number;
  readonly total_xp: number;
}

export interface Surge {
  readonly id: string;
  readonly status: string;
  readonly xp_multiplier: number;
  readonly end_time: string;
  readonly seconds_remaining: number;
}

export interface Preferences {
  readonly distance_unit: 'km' | 'mi';
  readonly default_charity_id: string | null;
  readonly remember_charity: boolean;
}

/** The envelope most product routes answer with. */
export interface DataEnvelope<T> {
  readonly success: true;
  readonly data: T;
}
