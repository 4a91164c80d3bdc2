import { type Kysely, sql } from 'kysely';
import type { ChallengeRun } from '../../domain/stats/challenges.ts';

/** A member's streak (§3 user_streaks), zero when none was recorded yet. */
export type MemberStreakRow = {
  user_id: string;
  current_streak: number;
  longest_streak: number;
  last_completed_week: string | null;
};

/**
 * The group members' runs `viewerId` may see, as a query for a `WITH visible AS (…)`. Rejected runs (vehicle,
 * teleport) never count. Strava terms (FACTS): a run synced from Strava is shown only to its owner, so other
 * members' synced runs are left out of every figure the viewer gets.
 */
const visibleRuns = (groupId: string, viewerId: string) => sql`
  SELECT r.id, r.user_id, r.distance_km, r.duration_sec, r.started_at
  FROM runs r JOIN group_members m ON m.user_id = r.user_id AND m.group_id = ${groupId}
  WHERE r.verdict <> 'rejected' AND (r.source = 'gps' OR r.user_id = ${viewerId})`;

type VisibleRunRow = { user_id: string; distance_km: number; duration_sec: number; started_at: Date };

const toChallengeRun = (r: VisibleRunRow): ChallengeRun => ({
  user_id: r.user_id,
  distance_km: Number(r.distance_km),
  duration_sec: Number(r.duration_sec),
  started_at: new Date(r.started_at).toISOString(),
});

/** Members' runs that `viewerId` may see (visibleRuns), started in [from, to). */
export async function visibleMemberRuns(
  db: Kysely<object>,
  groupId: string,
  viewerId: string,
  range: { from: Date; to: Date },
): Promise<ChallengeRun[]> {
  const { rows } = await sql<VisibleRunRow>`
    WITH visible AS (${visibleRuns(groupId, viewerId)})
    SELECT user_id, distance_km, duration_sec, started_at FROM visible
    WHERE started_at >= ${range.from} AND started_at < ${range.to}
    ORDER BY started_at, id`.execute(db);
  return rows.map(toChallengeRun);
}

/**
 * The runs the challenges of one week need (domain/stats/challenges.ts), not every run members ever made: the runs of
 * the week, and for each member the fastest run of at least 5 km and the fastest of at least 10 km (the only runs
 * `fastestOver` can pick), as the runs read model keeps them (run-records.ts): among all their runs for the viewer
 * themself, among their GPS runs for the others (visibleRuns' rule). challengeFigures gives the same figures from these
 * as from all of a member's runs, and the answer, and its cost, stay the size of the group however long its history.
 */
export async function challengeRuns(
  db: Kysely<object>,
  groupId: string,
  viewerId: string,
  week: { from: string; to: string },
): Promise<ChallengeRun[]> {
  const { rows } = await sql<VisibleRunRow>`
    WITH visible AS (${visibleRuns(groupId, viewerId)})
    SELECT user_id, distance_km, duration_sec, started_at FROM (
      (SELECT * FROM visible WHERE started_at >= ${week.from}::timestamptz AND started_at < ${week.to}::timestamptz)
      UNION
      (SELECT r.id, r.user_id, r.distance_km, r.duration_sec, r.started_at
       FROM group_members m
       JOIN run_records f ON f.user_id = m.user_id AND f.synced_included = (m.user_id = ${viewerId})
       JOIN runs r ON r.id = f.run_id
       WHERE m.group_id = ${groupId})
    ) picked
    ORDER BY started_at, id`.execute(db);
  return rows.map(toChallengeRun);
}

/** Streaks of the group's members. */
export async function memberStreaks(db: Kysely<object>, groupId: string): Promise<Map<string, MemberStreakRow>> {
  const { rows } = await sql<MemberStreakRow>`
    SELECT m.user_id, coalesce(s.current_streak, 0)::int AS current_streak, coalesce(s.longest_streak, 0)::int AS longest_streak,
      s.last_completed_week
    FROM group_members m LEFT JOIN user_streaks s ON s.user_id = m.user_id
    WHERE m.group_id = ${groupId}`.execute(db);
  return new Map(rows.map((r) => [r.user_id, r]));
}

/** Members whose goal for the week starting `weekStart` was completed. */
export async function membersWhoMetGoal(db: Kysely<object>, groupId: string, weekStart: string): Promise<Set<string>> {
  const { rows } = await sql<{ user_id: string }>`
    SELECT DISTINCT g.user_id FROM goals g JOIN group_members m ON m.user_id = g.user_id AND m.group_id = ${groupId}
    WHERE g.period_start = ${weekStart} AND g.status = 'completed'`.execute(db);
  return new Set(rows.map((r) => r.user_id));
}
