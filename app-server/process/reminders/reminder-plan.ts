import { Temporal } from 'temporal-polyfill';
import { weekContaining } from '../../../domain/shared/week.ts';
import type { NotificationPreferences } from '../../../domain/validation/notifications.ts';
import type { OutgoingNotification } from '../../commands/notifications/deliver.ts';

/** A goal as the reminders need it. */
export interface ReminderGoal {
  readonly id: string;
  readonly type: 'distance' | 'count';
  readonly status: string;
  readonly targetValue: number;
  readonly progress: number;
  /** Monday of the goal's week, YYYY-MM-DD. */
  readonly periodStart: string;
}

/** Everything that decides one user's reminders. */
export interface ReminderInput {
  readonly userId: string;
  readonly timeZone: string;
  readonly preferences: NotificationPreferences;
  readonly goals: readonly ReminderGoal[];
  /** The group an ending_soon tap opens (§2), null when the user is in none. */
  readonly groupId: string | null;
}

/** A reminder with its moment and the end of the window in which it is still worth sending. */
export interface PlannedReminder extends OutgoingNotification {
  readonly dueAt: Temporal.Instant;
  readonly windowEnd: Temporal.Instant;
}

/** `date` at `time` ('HH:MM:SS') on the wall clock of `timeZone` (a time skipped by DST moves forward). */
function at(date: Temporal.PlainDate, time: string, timeZone: string): Temporal.Instant {
  return date.toZonedDateTime({ timeZone, plainTime: Temporal.PlainTime.from(time) }).toInstant();
}

const midnight = (date: Temporal.PlainDate, timeZone: string) => date.toZonedDateTime({ timeZone }).toInstant();

function targetText(goal: ReminderGoal): string {
  return goal.type === 'distance' ? `${goal.targetValue} km` : `${goal.targetValue} runs`;
}

const percent = (goal: ReminderGoal) =>
  goal.targetValue > 0 ? Math.min(999, Math.floor((goal.progress / goal.targetValue) * 100)) : 0;

/**
 * The reminders of one user around `now`, in the user's own zone (§9 defaults, times from their preferences):
 * upcoming goal the day before it starts, mid-week update on Wednesday and ending soon on Sunday, each only if
 * switched on and only when there is a goal to talk about. Ids are deterministic (user + type + goal or week).
 * A reminder stays sendable until its moment has passed meaningfully (the goal started, Wednesday ended, the week
 * ended), so a scheduler that was down catches up, but nothing stale is sent.
 */
export function planReminders(input: ReminderInput, now: Temporal.Instant): PlannedReminder[] {
  const { userId, timeZone, preferences: p } = input;
  const plans: PlannedReminder[] = [];
  if (p.upcoming_goal_enabled) {
    for (const goal of input.goals.filter((g) => g.status === 'upcoming')) {
      const start = Temporal.PlainDate.from(goal.periodStart);
      plans.push({
        id: `upcoming_goal:${userId}:${goal.id}`,
        userId,
        type: 'upcoming_goal',
        title: 'Your goal starts tomorrow',
        message: `Get ready: ${targetText(goal)} this week.`,
        data: { url: '/goals' },
        dueAt: at(start.subtract({ days: 1 }), p.upcoming_goal_time, timeZone),
        windowEnd: midnight(start, timeZone),
      });
    }
  }
  const week = weekContaining(now, timeZone);
  const monday = Temporal.PlainDate.from(week.weekStart);
  const current = input.goals.find(
    (g) => g.periodStart === week.weekStart && (g.status === 'active' || g.status === 'completed'),
  );
  if (current && p.midweek_update_enabled) {
    const wednesday = monday.add({ days: 2 });
    plans.push({
      id: `midweek_update:${userId}:${week.weekStart}`,
      userId,
      type: 'midweek_update',
      title: 'Mid-week check-in',
      message: `You are at ${percent(current)}% of your ${targetText(current)} goal.`,
      data: { url: '/profile?tab=stakes' },
      dueAt: at(wednesday, p.midweek_update_time, timeZone),
      windowEnd: midnight(wednesday.add({ days: 1 }), timeZone),
    });
  }
  if (current && current.status === 'active' && p.ending_soon_enabled) {
    const url = input.groupId ? `/groups/${input.groupId}` : '/goals';
    plans.push({
      id: `ending_soon:${userId}:${week.weekStart}`,
      userId,
      type: 'ending_soon',
      title: 'Your week ends today',
      message: `${percent(current)}% of ${targetText(current)} so far. There is still time!`,
      data: input.groupId ? { url, groupId: input.groupId } : { url },
      dueAt: at(monday.add({ days: 6 }), p.ending_soon_time, timeZone),
      windowEnd: week.end,
    });
  }
  return plans;
}

/** Whether a planned reminder should go out at `now`. */
export function isDue(plan: PlannedReminder, now: Temporal.Instant): boolean {
  return Temporal.Instant.compare(plan.dueAt, now) <= 0 && Temporal.Instant.compare(now, plan.windowEnd) < 0;
}
