import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import type { Charity } from '../../../lib/api-types.ts';

/** GET /charities: active charities by name, for the wizard's charity step. */
export const getCharities = async (): Promise<Charity[]> =>
  (await api<{ charities: Charity[] }>('/charities')).charities;

export const charitiesQueryOptions = () => queryOptions({ queryKey: ['charities'], queryFn: getCharities });

export const useCharities = (enabled = true) => useQuery({ ...charitiesQueryOptions(), enabled });
