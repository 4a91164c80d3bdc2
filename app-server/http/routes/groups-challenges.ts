import { CompiledQuery, type Kysely } from 'kysely';
import { streakAsOf } from '../../../domain/gamification/streaks.ts';
import { DEFAULT_TIME_ZONE } from '../../../domain/shared/time-zone.ts';
import type { WeekRange } from '../../../domain/shared/week.ts';
import {
  type ChallengeFigures,
  challengeNumbers,
  type MemberChallengeNumbers,
  rankChallenges,
} from '../../../domain/stats/challenges.ts';
import type { ChangeTopic } from '../../../projections/engine/projector.ts';
import { pausedWeeksOfUsers } from '../../../projections/goal-pauses/pause-queries.ts';
import { challengeRuns, memberStreaks } from '../../../projections/groups/group-stats-queries.ts';
import { withGenericPlans } from '../../db/generic-plans.ts';
import { cachedRead, type ReadCache } from '../read-cache.ts';
import { viewerWeek } from './groups-stats.ts';

/*
 * GET /groups/{id}/challenges (§3), from the read cache (read-cache.ts, exact), one barrier for both reads: the group's
 * members as they are now (the membership check, their names, the viewer's zone: one precompiled read on a miss), and
 * the members' figures for the viewer's week and their level and XP (the order ties keep), ranked with those names.
 *
 * What the entry depends on, and who announces it: the members' runs and fastest-run records (`runs`, the runs
 * projector, to the runner), their streaks (`streak`: the gamification projector's WeekSettled, and the goal-pauses
 * projector, whose paused weeks age a streak), their level and XP (`xp`, the gamification projector), the membership
 * (`groups`, the groups projector, to every member and to one who left). The entry watches those topics for the viewer
 * and every member (`users`), and its key holds the member ids read this request, the week and the zone: a member
 * who joined or left, or another week, is another key. (`groups` still matters: a change committed between this
 * request's read of the members and the fill's own reads gives the key's members the other membership's figures.)
 * Names are not in the figures' entry but in the members' (a rename re-ranks without reloading the figures).
 */

/** The cached part of the answer for one viewer, group, week and member set. */
interface ChallengeEntry {
  readonly numbers: ReadonlyMap<string, MemberChallengeNumbers>;
  /** Level and total XP per member: the members' order (groupMembers'), which ties in the leaderboards keep. */
  readonly standing: ReadonlyMap<string, { readonly level: number; readonly totalXp: number }>;
  /** The last answer (its JSON) and the names it was made with: the same names give the same answer. */
  last: { readonly names: string; readonly body: Uint8Array<ArrayBuffer> } | null;
}

const CHALLENGE_TOPICS: readonly ChangeTopic[] = ['runs', 'streak', 'xp', 'groups'];
/**
 * The members as they are now: a join or a leave (`groups`, to every member and to one who left), a member's name and
 * the viewer's zone (`profile`, announced by a trigger on the accounts table, app-server/auth/migrations.ts).
 */
const MEMBERS_TOPICS: readonly ChangeTopic[] = ['groups', 'profile'];

/**
 * The members by name then id (the database's collation, as groupMembers sorts them), their names now ("Deleted
 * user" once erased), and the viewer's zone. No row for the viewer: not a member, or no such group. The names are
 * primary-key reads per member: a join would hash the whole users table.
 */
const MEMBERS_NOW = `SELECT m.user_id,
     coalesce((SELECT u.display_name FROM users u WHERE u.id = m.user_id), 'Deleted user') AS display_name,
     (SELECT v.timezone FROM users v WHERE v.id = $2) AS viewer_time_zone
   FROM group_members m
   WHERE m.group_id = $1 AND EXISTS (SELECT FROM groups g WHERE g.id = $1)
   ORDER BY display_name, m.user_id`;

type MemberNow = { user_id: string; display_name: string; viewer_time_zone: string | null };

/**
 * The challenges answer for `viewerId` as the response's JSON (`{ success, data }`), or null when the viewer is not a
 * member of the group (or there is none): the caller answers 404 as for any group the caller cannot see.
 */
export async function groupChallenges(
  db: Kysely<object>,
  cache: ReadCache | null | undefined,
  groupId: string,
  viewerId: string,
  now: Date,
): Promise<Uint8Array<ArrayBuffer> | null> {
  const reads = cache?.forRequest();
  const rows = await cachedRead(
    reads,
    {
      userId: viewerId,
      read: 'groups/members',
      query: groupId,
      topics: MEMBERS_TOPICS,
      users: (members) => members.map((m) => m.user_id),
    },
    async () => ({
      value: (await db.executeQuery<MemberNow>(CompiledQuery.raw(MEMBERS_NOW, [groupId, viewerId]))).rows,
    }),
  );
  const viewer = rows.find((m) => m.user_id === viewerId);
  if (!viewer) return null;
  const timeZone = viewer.viewer_time_zone ?? DEFAULT_TIME_ZONE;
  const week = viewerWeek(now, timeZone);
  // By id: a rename reorders the rows, not the members.
  const memberIds = rows.map((m) => m.user_id).sort();
  const entry = await cachedRead<ChallengeEntry>(
    reads,
    {
      userId: viewerId,
      read: 'groups/challenges',
      query: JSON.stringify([groupId, week.weekStart, timeZone, memberIds]),
      topics: CHALLENGE_TOPICS,
      users: memberIds,
      now: now.getTime(),
    },
    async () => ({
      value: await withGenericPlans(db, (tx) => loadEntry(tx, groupId, viewerId, memberIds, week)),
      // Nothing in the entry moves with the clock inside its week; past it the key is another week's anyway.
      validUntil: week.end.epochMilliseconds,
    }),
  );
  return answer(entry, week.weekStart, rows);
}

const utf8 = new TextEncoder();

/**
 * The answer from the entry and the names read now, serialised once: the same names (the entry's week and members are
 * its key) give the same bytes, so a hit with unchanged names neither ranks nor serialises again.
 */
function answer(entry: ChallengeEntry, weekStart: string, byName: readonly MemberNow[]): Uint8Array<ArrayBuffer> {
  let names = '';
  for (const m of byName) names += `${m.user_id}\u0000${m.display_name}\u0000`;
  if (entry.last?.names === names) return entry.last.body;
  // groupMembers' order: level, then XP, both descending; the database's name-then-id order within (a stable sort).
  const standing = (id: string) => entry.standing.get(id) ?? { level: 1, totalXp: 0 };
  const members = [...byName].sort(
    (a, b) =>
      standing(b.user_id).level - standing(a.user_id).level ||
      standing(b.user_id).totalXp - standing(a.user_id).totalXp,
  );
  const data: { week_start: string } & ChallengeFigures = {
    week_start: weekStart,
    ...rankChallenges(members, entry.numbers),
  };
  const body = utf8.encode(JSON.stringify({ success: true, data }));
  entry.last = { names, body };
  return body;
}

/**
 * Each member's figures for the week (their streak aged to it, paused weeks skipped; distance; best paces) and their
 * level and XP.
 */
async function loadEntry(
  db: Kysely<object>,
  groupId: string,
  viewerId: string,
  memberIds: readonly string[],
  week: WeekRange,
): Promise<ChallengeEntry> {
  const range = { from: week.start.toString(), to: week.end.toString() };
  const [streaks, runs, paused, standing] = await Promise.all([
    memberStreaks(db, groupId),
    challengeRuns(db, groupId, viewerId, range),
    // A paused week neither breaks nor extends a member's streak, here as on their own dashboard.
    pausedWeeksOfUsers(db, memberIds),
    memberStanding(db, memberIds),
  ]);
  const members = memberIds.map((userId) => {
    const s = streaks.get(userId);
    const aged = streakAsOf(
      {
        current: s?.current_streak ?? 0,
        longest: s?.longest_streak ?? 0,
        lastCompletedWeek: s?.last_completed_week ?? null,
      },
      week.weekStart,
      paused.get(userId),
    );
    return { user_id: userId, current_streak: aged.current, longest_streak: aged.longest };
  });
  return { numbers: challengeNumbers(members, runs, range), standing, last: null };
}

/** Level and total XP of each member with a row (groupMembers' defaults, level 1 and no XP, for the others). */
async function memberStanding(
  db: Kysely<object>,
  memberIds: readonly string[],
): Promise<Map<string, { level: number; totalXp: number }>> {
  const { rows } = await db.executeQuery<{ user_id: string; level: number; total_xp: number }>(
    CompiledQuery.raw(
      `SELECT user_id, coalesce(level, 1)::int AS level, coalesce(total_xp, 0)::int AS total_xp
       FROM user_xp WHERE user_id = ANY($1::text[])`,
      [memberIds],
    ),
  );
  const standing = new Map<string, { level: number; totalXp: number }>();
  for (const r of rows) standing.set(r.user_id, { level: r.level, totalXp: r.total_xp });
  return standing;
}
