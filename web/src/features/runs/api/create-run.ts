import { api } from '../../../lib/api.ts';
import type { Goal, GpsPositionJson, Run } from '../../../lib/api-types.ts';

export interface CreateRunInput {
  readonly started_at: string;
  readonly distance_km: number;
  readonly duration_sec: number;
  readonly source: 'gps';
  readonly gps_data: { readonly positions: readonly GpsPositionJson[] };
}

/** POST /runs: saves a GPS run; answers the run and the current goal with the run counted. */
export const createRun = (input: CreateRunInput) =>
  api<{ data: Run; goal: Goal | null }>('/runs', { method: 'POST', body: input });
