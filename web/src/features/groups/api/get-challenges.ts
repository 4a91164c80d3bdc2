import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ChallengeFigures } from '../../../../../domain/stats/challenges.ts';
import { api } from '../../../lib/api.ts';
import type { DataEnvelope } from '../../../lib/api-types.ts';

/** GET /groups/{id}/challenges: this week's distance, streaks and best paces (§3 challenges response). */
export const getChallenges = async (id: string): Promise<ChallengeFigures> =>
  (await api<DataEnvelope<ChallengeFigures>>(`/groups/${encodeURIComponent(id)}/challenges`)).data;

export const challengesQueryOptions = (id: string) =>
  queryOptions({ queryKey: ['groups', 'challenges', id], queryFn: () => getChallenges(id) });

export const useChallenges = (id: string) => useQuery(challengesQueryOptions(id));
