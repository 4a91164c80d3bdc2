import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { FeedEventRow } from './feed-tables.ts';

/** Feed filters (§9) and the card types each one shows. */
const TYPES_BY_FILTER: Record<'all' | 'runs' | 'stakes' | 'badges', readonly string[]> = {
  all: ['run_completed', 'stake_created', 'stake_settled', 'badge_earned'],
  runs: ['run_completed'],
  stakes: ['stake_created', 'stake_settled'],
  badges: ['badge_earned'],
};

/** Page size of the feed (§9). */
export const FEED_PAGE_SIZE = 20;

/** A feed row with its author's current display name. */
export type FeedListRow = FeedEventRow & { display_name: string };

/** One reaction with the reactor's display name. */
export type ReactionRow = { feed_event_id: string; user_id: string; emoji: string; display_name: string };

/** Whose cards a feed shows: one user's own, or a group's current members'. */
export type FeedScope =
  | { readonly kind: 'own'; readonly userId: string }
  | { readonly kind: 'group'; readonly groupId: string };

/**
 * A page of visible cards, newest first. `before` is the previous page's last global position (the cursor);
 * one extra row is read to know whether another page follows.
 *
 * Two steps, so the cost stays that of a page however long the authors' histories grow: the page is chosen from the
 * index alone (for each author, their newest visible cards of the asked kinds, at most a page each), and only then
 * are its cards read from the table. Reading every card of every member and sorting them read the table for each.
 */
export async function listFeed(
  db: Kysely<object>,
  scope: FeedScope,
  filter: keyof typeof TYPES_BY_FILTER,
  before: number | null,
): Promise<{ rows: FeedListRow[]; nextCursor: number | null }> {
  const size = FEED_PAGE_SIZE + 1;
  const newestOf = (author: RawBuilder<unknown>) => sql`
    SELECT f.id, f.global_position FROM feed_events f
    WHERE f.user_id = ${author} AND f.is_visible AND f.event_type = ANY(${[...TYPES_BY_FILTER[filter]]}::text[])
      ${before === null ? sql`` : sql`AND f.global_position < ${before}`}
    ORDER BY f.global_position DESC
    LIMIT ${size}`;
  const page =
    scope.kind === 'own'
      ? newestOf(sql`${scope.userId}`)
      : sql`
        SELECT p.id, p.global_position FROM group_members m
        CROSS JOIN LATERAL (${newestOf(sql`m.user_id`)}) p
        WHERE m.group_id = ${scope.groupId}
        ORDER BY p.global_position DESC
        LIMIT ${size}`;
  const { rows } = await sql<FeedListRow>`
    WITH page AS (${page})
    SELECT f.*, coalesce(u.display_name, 'Deleted user') AS display_name
    FROM page JOIN feed_events f ON f.id = page.id LEFT JOIN users u ON u.id = f.user_id
    ORDER BY f.global_position DESC`.execute(db);
  const shown = rows.slice(0, FEED_PAGE_SIZE);
  const last = shown[shown.length - 1];
  return { rows: shown, nextCursor: rows.length > FEED_PAGE_SIZE && last ? Number(last.global_position) : null };
}

/** The reactions on the given cards, in a stable order (user, then kind), with reactors' names. */
export async function reactionsOn(db: Kysely<object>, feedEventIds: readonly string[]): Promise<ReactionRow[]> {
  if (feedEventIds.length === 0) return [];
  const { rows } = await sql<ReactionRow>`
    SELECT r.feed_event_id, r.user_id, r.emoji, coalesce(u.display_name, 'Deleted user') AS display_name
    FROM reactions r LEFT JOIN users u ON u.id = r.user_id
    WHERE r.feed_event_id = ANY(${[...feedEventIds]}::text[])
    ORDER BY r.feed_event_id, r.user_id, array_position(ARRAY['thumbs_up','clap','fire'], r.emoji)`.execute(db);
  return rows;
}

/** One visible card with its author's name, or null. */
export async function findFeedEvent(db: Kysely<object>, id: string): Promise<FeedListRow | null> {
  const { rows } = await sql<FeedListRow>`
    SELECT f.*, coalesce(u.display_name, 'Deleted user') AS display_name
    FROM feed_events f LEFT JOIN users u ON u.id = f.user_id
    WHERE f.id = ${id} AND f.is_visible`.execute(db);
  return rows[0] ?? null;
}

/**
 * Charity names by id. The charities table belongs to the payments module and may not exist yet in a fresh
 * deployment; without it names are simply unknown (null), never an error.
 */
export async function charityNames(db: Kysely<object>, ids: readonly string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const { rows: exists } = await sql<{ t: string | null }>`SELECT to_regclass('charities')::text AS t`.execute(db);
  if (!exists[0]?.t) return new Map();
  const { rows } = await sql<{ id: string; name: string }>`
    SELECT id::text AS id, name FROM charities WHERE id::text = ANY(${[...ids]}::text[])`.execute(db);
  return new Map(rows.map((r) => [r.id, r.name]));
}
