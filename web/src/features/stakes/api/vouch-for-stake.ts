import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';

/**
 * POST /stakes/{id}/vouch (issue 25.2): the signed-in user, a member of one of the runner's groups, vouches that the
 * runner ran the appealed week. A refusal throws its sentence with its status (404 for anyone outside those groups).
 */
export const vouchForStake = async (stakeId: string): Promise<{ id: string; vouched: true }> =>
  (
    await api<{ data: { id: string; vouched: true } }>(`/stakes/${encodeURIComponent(stakeId)}/vouch`, {
      method: 'POST',
    })
  ).data;

/** The voucher never sees the runner's stake, so nothing cached changes: the runner's card learns it from the server. */
export const useVouchForStake = () => useMutation({ mutationFn: vouchForStake });
