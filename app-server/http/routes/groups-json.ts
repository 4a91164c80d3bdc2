import { levelForXp } from '../../../domain/gamification/levels.ts';
import type { GroupRow, MemberRow } from '../../../projections/groups/group-queries.ts';

const iso = (d: Date | string) => new Date(d).toISOString();

/** §3 Group member. */
export function memberJson(m: MemberRow) {
  return {
    user_id: m.user_id,
    role: m.role,
    joined_at: iso(m.joined_at),
    display_name: m.display_name,
    avatar_url: m.avatar_url,
  };
}

/** §3 Group as the caller may see it: the invite code and its expiry only for the owner (§6). */
export function groupJson(g: GroupRow, members: readonly MemberRow[]) {
  const owner = g.role === 'owner';
  return {
    id: g.id,
    name: g.name,
    owner_user_id: g.owner_user_id,
    created_at: iso(g.created_at),
    member_count: Number(g.member_count),
    role: g.role,
    ...(owner ? { invite_code: g.invite_code, invite_expires_at: iso(g.invite_expires_at) } : {}),
    members: members.map(memberJson),
  };
}

/**
 * The leaderboard as `viewerId` sees it (§7: by level, then XP, descending). Strava terms: another member's XP from
 * synced runs is Strava data, so it is left out of their total (and level) for everyone but themselves.
 */
export function leaderboardJson(members: readonly MemberRow[], viewerId: string) {
  return members
    .map((m) => {
      const total = Number(m.total_xp) - (m.user_id === viewerId ? 0 : Number(m.synced_run_xp));
      const level =
        m.user_id === viewerId || Number(m.synced_run_xp) === 0 ? Number(m.level) : levelForXp(Math.max(0, total));
      return {
        user_id: m.user_id,
        display_name: m.display_name,
        avatar_url: m.avatar_url,
        role: m.role,
        level,
        total_xp: total,
      };
    })
    .sort((a, b) => b.level - a.level || b.total_xp - a.total_xp || a.display_name.localeCompare(b.display_name))
    .map((line, index) => ({ rank: index + 1, ...line }));
}
