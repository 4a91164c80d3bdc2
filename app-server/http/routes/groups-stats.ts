import type { Kysely } from 'kysely';
import { Temporal } from 'temporal-polyfill';
import { round2 } from '../../../domain/shared/units.ts';
import { type WeekRange, weekContaining, weekStartingOn } from '../../../domain/shared/week.ts';
import type { MemberRow } from '../../../projections/groups/group-queries.ts';
import { membersWhoMetGoal, visibleMemberRuns } from '../../../projections/groups/group-stats-queries.ts';

/** The last week worked out per zone: a zone's week is the same for every request until it ends. */
const weeks = new Map<string, WeekRange>();

/** The week containing `now` in the viewer's zone: a group has no zone of its own, so "this week" is the viewer's. */
export function viewerWeek(now: Date, timeZone: string): WeekRange {
  const at = now.getTime();
  const known = weeks.get(timeZone);
  if (known && known.start.epochMilliseconds <= at && at < known.end.epochMilliseconds) return known;
  const week = weekContaining(Temporal.Instant.fromEpochMilliseconds(at), timeZone);
  // Bounded by the zones in use (a few hundred exist); forgotten wholesale should anything pass odd ones.
  if (weeks.size >= 1_000) weeks.clear();
  weeks.set(timeZone, week);
  return week;
}

/**
 * The weekly recap: the group's totals for one week (in the viewer's zone), each member's line, and the top three
 * by distance (ties by runs, then name). Goals met counts members whose goal for that week was completed.
 */
export async function groupRecap(
  db: Kysely<object>,
  groupId: string,
  viewerId: string,
  members: readonly MemberRow[],
  weekStart: string,
  timeZone: string,
) {
  const week = weekStartingOn(weekStart, timeZone);
  const range = { from: new Date(week.start.epochMilliseconds), to: new Date(week.end.epochMilliseconds) };
  const [runs, met] = await Promise.all([
    visibleMemberRuns(db, groupId, viewerId, range),
    membersWhoMetGoal(db, groupId, weekStart),
  ]);
  const lines = members.map((m) => {
    const own = runs.filter((r) => r.user_id === m.user_id);
    return {
      user_id: m.user_id,
      display_name: m.display_name,
      distance_km: round2(own.reduce((sum, r) => sum + r.distance_km, 0)),
      runs: own.length,
      goal_met: met.has(m.user_id),
    };
  });
  const ranked = [...lines].sort(
    (a, b) => b.distance_km - a.distance_km || b.runs - a.runs || a.display_name.localeCompare(b.display_name),
  );
  return {
    week_start: week.weekStart,
    week_end: Temporal.PlainDate.from(week.weekStart).add({ days: 6 }).toString(),
    time_zone: timeZone,
    total_distance_km: round2(lines.reduce((sum, l) => sum + l.distance_km, 0)),
    total_runs: lines.reduce((sum, l) => sum + l.runs, 0),
    goals_met: lines.filter((l) => l.goal_met).length,
    member_count: lines.length,
    members: ranked,
    top_performers: ranked.filter((l) => l.distance_km > 0).slice(0, 3),
  };
}
