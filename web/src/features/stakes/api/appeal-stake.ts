import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AppealReason } from '../../../../../domain/stake/appeal-events.ts';
import { api } from '../../../lib/api.ts';
import type { Stake } from '../../../lib/api-types.ts';

/** POST /stakes/{id}/appeal's body (domain/validation/stake-appeal.ts). */
export interface AppealInput {
  readonly stakeId: string;
  readonly reason: AppealReason;
  readonly note: string;
  readonly runIds: readonly string[];
}

/** POST /stakes/{id}/appeal (issue 25.2): a refusal (too early, already appealed, a run not found) throws its sentence. */
export const appealStake = async ({ stakeId, reason, note, runIds }: AppealInput): Promise<Stake> =>
  (
    await api<{ data: Stake }>(`/stakes/${encodeURIComponent(stakeId)}/appeal`, {
      method: 'POST',
      body: { reason, note, run_ids: runIds },
    })
  ).data;

/** Appealing changes the stake's label, timeline and appeal: the stakes are read again (the decision comes later,
 * announced on the realtime stream as a change of `stakes`). */
export function useAppealStake() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: appealStake,
    onSuccess: () => client.invalidateQueries({ queryKey: ['stakes'] }),
  });
}
