import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import type { Badge, DataEnvelope } from '../../../lib/api-types.ts';
import { BADGE_LOOKUP_LIMIT } from '../celebration-pick.ts';

/** GET /me/badges?uncelebrated=true&limit=5: the candidates for the badge celebration (§4). */
export const getUncelebratedBadges = async (): Promise<Badge[]> =>
  (await api<DataEnvelope<Badge[]>>(`/me/badges?uncelebrated=true&limit=${BADGE_LOOKUP_LIMIT}`)).data;

export const uncelebratedBadgesQueryOptions = () =>
  queryOptions({ queryKey: ['badges', 'uncelebrated'], queryFn: getUncelebratedBadges });

export const useUncelebratedBadges = () => useQuery(uncelebratedBadgesQueryOptions());
