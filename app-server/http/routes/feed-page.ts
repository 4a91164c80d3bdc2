import { CompiledQuery, type Kysely } from 'kysely';
import {
  charityNames,
  type FeedListRow,
  listFeed,
  type ReactionRow,
  reactionsOn,
} from '../../../projections/feed/feed-queries.ts';
import { findGroupOfMember } from '../../../projections/groups/group-queries.ts';
import type { ChangeTopic } from '../../../projections/engine/projector.ts';
import { cachedRead, type ReadCache } from '../read-cache.ts';

/** What GET /feed asks for (feedQuerySchema, parsed). */
export interface FeedPageQuery {
  readonly group_id?: string | undefined;
  readonly filter: 'all' | 'runs' | 'stakes' | 'badges';
  readonly cursor?: number | undefined;
}

/** A page of cards with their reactions and charities, names as they are now. Null: the viewer is not in the group. */
export interface FeedPage {
  readonly rows: readonly FeedListRow[];
  readonly reactions: readonly ReactionRow[];
  readonly charities: ReadonlyMap<string, string>;
  readonly nextCursor: number | null;
}

/**
 * The read models a page depends on, as their projectors announce them to the viewer: the cards (`feed`, to everyone
 * sharing a group with the author), the reactions (`reactions`), and the viewer's memberships (`groups`: the group
 * check and which members' cards the group's page shows). Charity names only change with a migration.
 */
const FEED_TOPICS: readonly ChangeTopic[] = ['feed', 'reactions', 'groups'];

/**
 * Names come from the accounts table, not from a read model: held per user by the read cache, and announced (topic
 * `profile`) by a trigger on every change of the column or deletion of the row (app-server/auth/migrations.ts), so a
 * rename or an erasure's "Deleted user" is in the next read. Those not held: one precompiled primary-key read.
 */
const DISPLAY_NAMES = `SELECT id, display_name FROM users WHERE id = ANY($1::text[])`;
const DELETED_USER = 'Deleted user';
const NAME_TOPICS: readonly ChangeTopic[] = ['profile'];

/**
 * GET /feed's page for `viewerId`: the group check, the cards, their reactions and charity names from the read cache
 * (read-cache.ts, exact), the names afresh.
 */
export async function feedPage(
  db: Kysely<object>,
  cache: ReadCache | null | undefined,
  viewerId: string,
  query: FeedPageQuery,
): Promise<FeedPage | null> {
  // One barrier for the page and its names (read-cache.ts, forRequest).
  const reads = cache?.forRequest();
  const page = await cachedRead(
    reads,
    {
      userId: viewerId,
      read: 'feed',
      query: JSON.stringify([query.group_id ?? null, query.filter, query.cursor ?? null]),
      topics: FEED_TOPICS,
    },
    async () => ({ value: await loadPage(db, viewerId, query) }),
  );
  if (page === null) return null;
  const ids = new Set([...page.rows.map((r) => r.user_id), ...page.reactions.map((r) => r.user_id)]);
  const names = reads
    ? await reads.readPerUser('display-name', [...ids], NAME_TOPICS, (missing) => displayNames(db, missing))
    : await displayNames(db, [...ids]);
  const named = <Row extends { user_id: string }>(row: Row) => ({
    ...row,
    display_name: names.get(row.user_id) ?? DELETED_USER,
  });
  return { ...page, rows: page.rows.map(named), reactions: page.reactions.map(named) };
}

async function loadPage(db: Kysely<object>, viewerId: string, query: FeedPageQuery): Promise<FeedPage | null> {
  if (query.group_id && !(await findGroupOfMember(db, query.group_id, viewerId))) return null;
  const scope = query.group_id
    ? { kind: 'group' as const, groupId: query.group_id }
    : { kind: 'own' as const, userId: viewerId };
  const { rows, nextCursor } = await listFeed(db, scope, query.filter, query.cursor ?? null);
  const charityIds = rows.map((r) => r.event_data.charity_id).filter((id): id is string => typeof id === 'string');
  const [reactions, charities] = await Promise.all([
    reactionsOn(
      db,
      rows.map((r) => r.id),
    ),
    charityNames(db, [...new Set(charityIds)]),
  ]);
  return { rows, reactions, charities, nextCursor };
}

async function displayNames(db: Kysely<object>, ids: readonly string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const { rows } = await db.executeQuery<{ id: string; display_name: string | null }>(
    CompiledQuery.raw(DISPLAY_NAMES, [ids]),
  );
  return new Map(rows.flatMap((r) => (r.display_name === null ? [] : [[r.id, r.display_name] as const])));
}
