import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import type { DataEnvelope, Streak } from '../../../lib/api-types.ts';

/** GET /me/streak: current and best streak in weeks. */
export const getStreak = async (): Promise<Streak> => (await api<DataEnvelope<Streak>>('/me/streak')).data;

export const streakQueryOptions = () => queryOptions({ queryKey: ['streak'], queryFn: getStreak });

export const useStreak = () => useQuery(streakQueryOptions());
