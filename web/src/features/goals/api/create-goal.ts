import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { GoalType } from '../../../../../domain/goal/target.ts';
import type { DistanceUnit } from '../../../../../domain/shared/units.ts';
import { api } from '../../../lib/api.ts';
import type { DataEnvelope, Goal } from '../../../lib/api-types.ts';

export interface CreateGoalInput {
  readonly type: GoalType;
  readonly target_value: number;
  readonly unit: DistanceUnit;
  readonly stake_amount_cents: number;
  readonly charity_id: string | null;
  readonly payment_method_id: string | null;
  readonly start: 'this_week' | 'next_week';
}

/** POST /goals. The target goes in the unit it was typed in; the server converts to km with the shared rule. */
export const createGoal = async (input: CreateGoalInput): Promise<Goal> =>
  (await api<DataEnvelope<Goal>>('/goals', { method: 'POST', body: input })).data;

export function useCreateGoal() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: createGoal,
    onSuccess: () => client.invalidateQueries({ queryKey: ['goals'] }),
  });
}
