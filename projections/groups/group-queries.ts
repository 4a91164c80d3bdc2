import { type Kysely, sql } from 'kysely';

/** A group as one member sees it (§3 Group), before the owner-only fields are dropped. */
export type GroupRow = {
  id: string;
  name: string;
  invite_code: string;
  invite_expires_at: Date;
  owner_user_id: string;
  created_at: Date;
  member_count: number;
  role: 'owner' | 'member';
};

/** A member with the profile fields the group screens show (§3 Group member) and their level for the leaderboard. */
export type MemberRow = {
  user_id: string;
  role: 'owner' | 'member';
  joined_at: Date;
  display_name: string;
  avatar_url: string | null;
  level: number;
  total_xp: number;
  /** XP earned by runs synced from a connected service: hidden from other members (Strava terms). */
  synced_run_xp: number;
};

const groupColumns = sql`g.id, g.name, g.invite_code, g.invite_expires_at, g.owner_user_id, g.created_at, m.role,
  (SELECT count(*)::int FROM group_members c WHERE c.group_id = g.id) AS member_count`;

/** The caller's groups, newest membership first. */
export async function listGroupsOf(db: Kysely<object>, userId: string): Promise<GroupRow[]> {
  const { rows } = await sql<GroupRow>`
    SELECT ${groupColumns} FROM groups g JOIN group_members m ON m.group_id = g.id AND m.user_id = ${userId}
    ORDER BY m.joined_at DESC, g.id`.execute(db);
  return rows;
}

/** Where a page of the caller's groups continues: after this membership (newest first). */
export type GroupsCursor = { readonly joinedAt: Date; readonly groupId: string };

/** One page of the caller's groups, newest membership first, and where the next page starts (null: the last page). */
export async function listGroupsPage(
  db: Kysely<object>,
  userId: string,
  page: { limit: number; after: GroupsCursor | null },
): Promise<{ rows: GroupRow[]; next: GroupsCursor | null }> {
  const after = page.after;
  const { rows } = await sql<GroupRow & { joined_at: Date }>`
    SELECT ${groupColumns}, m.joined_at FROM groups g
    JOIN group_members m ON m.group_id = g.id AND m.user_id = ${userId}
    ${after ? sql`WHERE (m.joined_at, g.id) < (${after.joinedAt}::timestamptz, ${after.groupId})` : sql``}
    ORDER BY m.joined_at DESC, g.id DESC LIMIT ${page.limit + 1}`.execute(db);
  const more = rows.length > page.limit;
  const kept = rows.slice(0, page.limit);
  const last = kept.at(-1);
  return {
    rows: kept,
    next: more && last ? { joinedAt: new Date(last.joined_at), groupId: last.id } : null,
  };
}

/** The group if `userId` is a member of it, else null: non-members cannot tell it exists. */
export async function findGroupOfMember(db: Kysely<object>, groupId: string, userId: string): Promise<GroupRow | null> {
  const { rows } = await sql<GroupRow>`
    SELECT ${groupColumns} FROM groups g JOIN group_members m ON m.group_id = g.id AND m.user_id = ${userId}
    WHERE g.id = ${groupId}`.execute(db);
  return rows[0] ?? null;
}

/** The id of the group whose current invite code is `code` (already normalised), or null. */
export async function findGroupIdByInviteCode(db: Kysely<object>, code: string): Promise<string | null> {
  const { rows } = await sql<{ id: string }>`SELECT id FROM groups WHERE invite_code = ${code} LIMIT 1`.execute(db);
  return rows[0]?.id ?? null;
}

/**
 * Members with their profile (joined from `users` at query time, so erased accounts read "Deleted user") and their
 * level and XP from the gamification read model, by level then XP descending (§7), ties by name for stability.
 * Their synced runs' XP is found from their synced runs (a partial index, runs-projector.ts), not from all their XP.
 */
export async function groupMembers(
  db: Kysely<object>,
  groupId: string,
  limit: number | null = null,
): Promise<MemberRow[]> {
  const { rows } = await sql<MemberRow>`
    SELECT m.user_id, m.role, m.joined_at, coalesce(u.display_name, 'Deleted user') AS display_name, u.avatar_url,
           coalesce(x.level, 1)::int AS level, coalesce(x.total_xp, 0)::int AS total_xp,
           (SELECT coalesce(sum(h.xp_amount), 0)::int FROM runs r
            JOIN xp_history h ON h.user_id = m.user_id AND h.source_type = 'run' AND h.source_id = r.id
            WHERE r.user_id = m.user_id AND r.source <> 'gps') AS synced_run_xp
    FROM group_members m
    LEFT JOIN users u ON u.id = m.user_id
    LEFT JOIN user_xp x ON x.user_id = m.user_id
    WHERE m.group_id = ${groupId}
    ORDER BY level DESC, total_xp DESC, display_name, m.user_id
    ${limit === null ? sql`` : sql`LIMIT ${limit}`}`.execute(db);
  return rows;
}

/** Every user who shares at least one group with `userId`, `userId` included. */
export async function groupMatesOf(db: Kysely<object>, userId: string): Promise<string[]> {
  const { rows } = await sql<{ user_id: string }>`
    SELECT DISTINCT o.user_id FROM group_members me JOIN group_members o ON o.group_id = me.group_id
    WHERE me.user_id = ${userId}`.execute(db);
  return [...new Set([userId, ...rows.map((r) => r.user_id)])];
}
