import { type Kysely, sql } from 'kysely';
import { DEFAULT_TIME_ZONE } from '../../../domain/shared/time-zone.ts';
import {
  DEFAULT_NOTIFICATION_PREFERENCES,
  type NotificationPreferences,
} from '../../../domain/validation/notifications.ts';
import type { ReminderInput } from './reminder-plan.ts';

type Row = NotificationPreferences & {
  user_id: string;
  timezone: string | null;
  has_prefs: boolean;
  goal_id: string;
  goal_type: 'distance' | 'count';
  status: string;
  target_value: number;
  progress: number;
  period_start: string;
  group_id: string | null;
};

/**
 * The reminder inputs of every user with a goal that is not over yet (only they can get a reminder), or of one user.
 * One query: goals joined with the profile zone, the notification preferences and the first group.
 */
export async function loadReminderInputs(db: Kysely<object>, now: Date, userId?: string): Promise<ReminderInput[]> {
  const { rows } = await sql<Row>`
    SELECT g.user_id, u.timezone, p.user_id IS NOT NULL AS has_prefs,
      p.upcoming_goal_enabled, p.midweek_update_enabled, p.ending_soon_enabled,
      p.upcoming_goal_time, p.midweek_update_time, p.ending_soon_time,
      g.id AS goal_id, g.type AS goal_type, g.status, g.target_value, g.progress, g.period_start,
      (SELECT m.group_id FROM group_members m WHERE m.user_id = g.user_id ORDER BY m.joined_at, m.group_id LIMIT 1) AS group_id
    FROM goals g
    JOIN users u ON u.id = g.user_id AND u.deleted_at IS NULL
    LEFT JOIN user_notification_preferences p ON p.user_id = g.user_id
    WHERE g.status IN ('upcoming', 'active', 'completed') AND g.week_ends_at > ${now}
      ${userId ? sql`AND g.user_id = ${userId}` : sql``}
    ORDER BY g.user_id, g.period_start`.execute(db);
  const byUser = new Map<string, ReminderInput & { goals: ReminderInput['goals'][number][] }>();
  for (const r of rows) {
    let input = byUser.get(r.user_id);
    if (!input) {
      const preferences: NotificationPreferences = r.has_prefs
        ? {
            upcoming_goal_enabled: r.upcoming_goal_enabled,
            midweek_update_enabled: r.midweek_update_enabled,
            ending_soon_enabled: r.ending_soon_enabled,
            upcoming_goal_time: r.upcoming_goal_time,
            midweek_update_time: r.midweek_update_time,
            ending_soon_time: r.ending_soon_time,
          }
        : DEFAULT_NOTIFICATION_PREFERENCES;
      input = {
        userId: r.user_id,
        timeZone: r.timezone ?? DEFAULT_TIME_ZONE,
        preferences,
        goals: [],
        groupId: r.group_id,
      };
      byUser.set(r.user_id, input);
    }
    input.goals.push({
      id: r.goal_id,
      type: r.goal_type,
      status: r.status,
      targetValue: Number(r.target_value),
      progress: Number(r.progress),
      periodStart: r.period_start,
    });
  }
  return [...byUser.values()];
}
