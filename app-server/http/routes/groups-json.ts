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

/** One leaderboard line (§7: members by level, then XP, descending). */
export function leaderboardJson(m: MemberRow, index: number) {
  return {
    rank: index + 1,
    user_id: m.user_id,
    display_name: m.display_name,
    avatar_url: m.avatar_url,
    role: m.role,
    level: Number(m.level),
    total_xp: Number(m.total_xp),
  };
}
