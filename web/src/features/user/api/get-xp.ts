import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import type { DataEnvelope, XpInfo } from '../../../lib/api-types.ts';

/** GET /me/xp: total XP, level and progress within it, for the XP bar. */
export const getXp = async (): Promise<XpInfo> => (await api<DataEnvelope<XpInfo>>('/me/xp')).data;

export const xpQueryOptions = () => queryOptions({ queryKey: ['xp'], queryFn: getXp });

export const useXp = () => useQuery(xpQueryOptions());
