import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import type { DataEnvelope, LeaderboardLine } from '../../../lib/api-types.ts';

/** GET /groups/{id}/leaderboard: members by level, then XP. */
export const getLeaderboard = async (id: string): Promise<LeaderboardLine[]> =>
  (await api<DataEnvelope<LeaderboardLine[]>>(`/groups/${encodeURIComponent(id)}/leaderboard`)).data;

export const leaderboardQueryOptions = (id: string) =>
  queryOptions({ queryKey: ['groups', 'leaderboard', id], queryFn: () => getLeaderboard(id) });

export const useLeaderboard = (id: string) => useQuery(leaderboardQueryOptions(id));
