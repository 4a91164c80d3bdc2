import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import type { Profile } from '../../../lib/api-types.ts';

/** GET /auth/me: the signed-in user's profile with level and tier. */
export const getMe = async (): Promise<Profile> => (await api<{ user: Profile }>('/auth/me')).user;

export const meQueryOptions = () => queryOptions({ queryKey: ['me'], queryFn: getMe });

export const useMe = () => useQuery(meQueryOptions());
