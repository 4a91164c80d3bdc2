import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import type { Badge, DataEnvelope } from '../../../lib/api-types.ts';

/** GET /me/badges: the badges earned, newest first. */
export const getMyBadges = async (): Promise<Badge[]> => (await api<DataEnvelope<Badge[]>>('/me/badges')).data;

export const myBadgesQueryOptions = () => queryOptions({ queryKey: ['badges', 'mine'], queryFn: getMyBadges });

export const useMyBadges = () => useQuery(myBadgesQueryOptions());
