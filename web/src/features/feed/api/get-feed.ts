import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import type { FeedEvent } from '../../../lib/api-types.ts';

/** The feed filters of §9. */
export const FEED_FILTERS = ['all', 'runs', 'stakes', 'badges'] as const;
export type FeedFilter = (typeof FEED_FILTERS)[number];

export interface FeedPage {
  readonly data: FeedEvent[];
  readonly next_cursor: string | null;
}

/** GET /feed: one page of 20 cards, the user's own or a group's; `cursor` continues from the previous page. */
export async function getFeed(filter: FeedFilter, groupId: string | null, cursor: string | null): Promise<FeedPage> {
  const query = new URLSearchParams({ filter });
  if (groupId) query.set('group_id', groupId);
  if (cursor) query.set('cursor', cursor);
  const answer = await api<{ data: FeedEvent[]; next_cursor?: string | null }>(`/feed?${query}`);
  return { data: answer.data, next_cursor: answer.next_cursor ?? null };
}

export const feedQueryOptions = (filter: FeedFilter, groupId: string | null) =>
  infiniteQueryOptions({
    queryKey: ['feed', groupId ?? 'own', filter],
    queryFn: ({ pageParam }) => getFeed(filter, groupId, pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next_cursor,
  });

/** Feed load failures are only logged (§8): the card shows its empty state. */
export const useFeed = (filter: FeedFilter, groupId: string | null) =>
  useInfiniteQuery(feedQueryOptions(filter, groupId));
