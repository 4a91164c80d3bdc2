import { sql, type Transaction } from 'kysely';
import type { GroupEvent } from '../../domain/group/events.ts';
import type { RecordedEvent } from '../../domain/shared/event-store.ts';
import type { Projector, TableNames } from '../engine/projector.ts';

/** The groups read models (§3 Group, Group member). */
export type GroupsTable = 'groups' | 'group_members';

type Tables = TableNames<GroupsTable>;

/**
 * Groups and their current members from the group streams. Personal data (display name, avatar) is not copied:
 * queries join the `users` table, so an account deletion or a rename shows at once. Every change is announced to
 * each member (and to a member who just left), since the group list and detail of all of them changed.
 */
export const groupsProjector: Projector<GroupsTable> = {
  name: 'groups',
  version: 1,
  eventTypes: ['GroupCreated', 'MemberJoined', 'MemberLeft', 'InviteCodeRotated'] satisfies GroupEvent['type'][],
  tables: ['groups', 'group_members'],

  async createTables(db, t) {
    await sql`
      CREATE TABLE IF NOT EXISTS ${sql.table(t.groups)} (
        id text PRIMARY KEY,
        name text NOT NULL,
        invite_code text NOT NULL,
        invite_expires_at timestamptz NOT NULL,
        owner_user_id text NOT NULL,
        created_at timestamptz NOT NULL
      )`.execute(db);
    await sql`CREATE INDEX IF NOT EXISTS ${sql.id(`${t.groups}_invite_code`)}
      ON ${sql.table(t.groups)} (invite_code)`.execute(db);
    await sql`
      CREATE TABLE IF NOT EXISTS ${sql.table(t.group_members)} (
        group_id text NOT NULL,
        user_id text NOT NULL,
        role text NOT NULL,
        joined_at timestamptz NOT NULL,
        PRIMARY KEY (group_id, user_id)
      )`.execute(db);
    await sql`CREATE INDEX IF NOT EXISTS ${sql.id(`${t.group_members}_user`)}
      ON ${sql.table(t.group_members)} (user_id)`.execute(db);
  },

  async apply(events, { tx, tables, announce }) {
    const touched = new Set<string>();
    const leavers = new Set<string>();
    for (const recorded of events) {
      // Batches are small and group events rare: one statement per event keeps the order obviously right.
      const event = recorded as unknown as RecordedEvent & GroupEvent;
      if (await applyOne(tx, tables, event, leavers)) touched.add(event.data.groupId);
    }
    if (touched.size === 0) return;
    const { rows } = await sql<{ user_id: string }>`
      SELECT DISTINCT user_id FROM ${sql.table(tables.group_members)} WHERE group_id = ANY(${[...touched]}::text[])`.execute(
      tx,
    );
    for (const row of rows) announce(row.user_id, 'groups');
    for (const userId of leavers) announce(userId, 'groups');
  },
};

async function applyOne(tx: Transaction<object>, t: Tables, event: GroupEvent, leavers: Set<string>): Promise<boolean> {
  switch (event.type) {
    case 'GroupCreated': {
      const d = event.data;
      await sql`
        INSERT INTO ${sql.table(t.groups)} (id, name, invite_code, invite_expires_at, owner_user_id, created_at)
        VALUES (${d.groupId}, ${d.name}, ${d.inviteCode}, ${d.inviteExpiresAt}::timestamptz, ${d.ownerId},
                ${d.createdAt}::timestamptz)
        ON CONFLICT (id) DO NOTHING`.execute(tx);
      await upsertMember(tx, t, d.groupId, d.ownerId, 'owner', d.createdAt);
      return true;
    }
    case 'MemberJoined':
      await upsertMember(tx, t, event.data.groupId, event.data.userId, 'member', event.data.joinedAt);
      return true;
    case 'MemberLeft':
      await sql`DELETE FROM ${sql.table(t.group_members)}
        WHERE group_id = ${event.data.groupId} AND user_id = ${event.data.userId}`.execute(tx);
      leavers.add(event.data.userId);
      return true;
    case 'InviteCodeRotated':
      await sql`UPDATE ${sql.table(t.groups)} SET invite_code = ${event.data.inviteCode},
        invite_expires_at = ${event.data.inviteExpiresAt}::timestamptz WHERE id = ${event.data.groupId}`.execute(tx);
      return true;
    default:
      return false;
  }
}

async function upsertMember(
  tx: Transaction<object>,
  t: Tables,
  groupId: string,
  userId: string,
  role: string,
  at: string,
) {
  await sql`
    INSERT INTO ${sql.table(t.group_members)} (group_id, user_id, role, joined_at)
    VALUES (${groupId}, ${userId}, ${role}, ${at}::timestamptz)
    ON CONFLICT (group_id, user_id) DO UPDATE SET role = excluded.role, joined_at = excluded.joined_at`.execute(tx);
}
