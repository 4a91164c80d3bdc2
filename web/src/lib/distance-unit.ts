import { queryOptions, useQuery } from '@tanstack/react-query';
import type { DistanceUnit } from '../../../domain/shared/units.ts';
import { api } from './api.ts';
import type { DataEnvelope, Preferences } from './api-types.ts';
import { currentUserStorage } from './storage.ts';

/** GET /me/preferences: the unit, default charity and remember flag (§3 User preferences). */
export const preferencesQueryOptions = () =>
  queryOptions({
    queryKey: ['preferences'],
    queryFn: async () => {
      const { data } = await api<DataEnvelope<Preferences>>('/me/preferences');
      // Remembered locally (§9) so the next start shows the right unit before the answer arrives.
      currentUserStorage().setItem('distanceUnit', data.distance_unit);
      return data;
    },
  });

/** The user's distance unit (§5: km unless km or mi is stored). Shared by every screen that shows a distance. */
export function useDistanceUnit(): DistanceUnit {
  const { data } = useQuery(preferencesQueryOptions());
  // distanceUnitSchema's rule (km or mi, anything else km), without loading zod on every screen.
  return (data?.distance_unit ?? currentUserStorage().getItem('distanceUnit')) === 'mi' ? 'mi' : 'km';
}
