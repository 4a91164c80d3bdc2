import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import type { FeedEvent } from '../../../lib/api-types.ts';

/** The feed filters of §9. */
export const FEED_FILTERS = ['all', 'runs', 'stakes', 'badges'] as const;
export type FeedFilter = (typeof FEED_FILTERS)[number];

/** GET /feed: the first page of 20 cards, the user's own or a group's. */
export async function getFeed(filter: FeedFilter, groupId: string | null): Promise<FeedEvent[]> {
  const query = new URLSearchParams({ filter });
  if (groupId) query.set('group_id', groupId);
  return (await api<{ data: FeedEvent[] }>(`/feed?${query}`)).data;
}

export const feedQueryOptions = (filter: FeedFilter, groupId: string | null) =>
  queryOptions({ queryKey: ['feed', groupId ?? 'own', filter], queryFn: () => getFeed(filter, groupId) });

/** Feed load failures are only logged (§8): the card shows its empty state. */
export const useFeed = (filter: FeedFilter, groupId: string | null) => useQuery(feedQueryOptions(filter, groupId));
