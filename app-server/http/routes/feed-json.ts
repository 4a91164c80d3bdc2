import type { FeedListRow, ReactionRow } from '../../../projections/feed/feed-queries.ts';
import type { FeedEventData } from '../../../projections/feed/feed-tables.ts';

/** A card's event_data as answered (§3): the stored figures, the author's name, "a synced run", the charity's name. */
type FeedEventDataJson = Omit<FeedEventData, 'source' | 'charity_id'> & {
  readonly user_name: string;
  readonly synced?: boolean;
  readonly charity_name?: string | null;
};

/**
 * The card's §3 event_data as `viewerId` may see it. Strava terms (FACTS): a synced run's Strava data is shown only
 * to its owner; every other member sees "a synced run" with its author and nothing from Strava (XP is derived from
 * the Strava distance, so it goes too).
 */
export function eventDataFor(
  row: FeedListRow,
  viewerId: string,
  charities: ReadonlyMap<string, string>,
): FeedEventDataJson {
  const { source, charity_id, ...data } = row.event_data;
  const user_name = row.display_name;
  if (row.event_type === 'run_completed') {
    const synced = source !== undefined && source !== 'gps';
    if (synced && row.user_id !== viewerId) return { user_name, synced: true } satisfies FeedEventDataJson;
    return { user_name, ...data, synced } satisfies FeedEventDataJson;
  }
  if (row.event_type === 'stake_settled') {
    const charity_name = charity_id ? (charities.get(charity_id) ?? null) : null;
    return { user_name, ...data, charity_name } satisfies FeedEventDataJson;
  }
  return { user_name, ...data } satisfies FeedEventDataJson;
}

/** Reaction counts of the three kinds and who reacted (§3 feed event `reactions`). */
export function reactionsJson(reactions: readonly ReactionRow[]) {
  const count = (emoji: string) => reactions.filter((r) => r.emoji === emoji).length;
  return {
    thumbs_up: count('thumbs_up'),
    clap: count('clap'),
    fire: count('fire'),
    reactions: reactions.map((r) => ({ user_id: r.user_id, display_name: r.display_name, emoji: r.emoji })),
  };
}

/** §3 Feed event. `groupId` is the group the feed was asked for (cards themselves belong to their author). */
export function feedEventJson(
  row: FeedListRow,
  viewerId: string,
  groupId: string | null,
  reactions: readonly ReactionRow[],
  charities: ReadonlyMap<string, string>,
) {
  return {
    id: row.id,
    user_id: row.user_id,
    group_id: groupId,
    event_type: row.event_type,
    event_data: eventDataFor(row, viewerId, charities),
    is_visible: row.is_visible,
    created_at: new Date(row.created_at).toISOString(),
    display_name: row.display_name,
    reactions: reactionsJson(reactions.filter((r) => r.feed_event_id === row.id)),
  };
}
