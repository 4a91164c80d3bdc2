import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';

/** DELETE /api/payment/payment-methods/{id} (refused with 409 while the card secures an open stake). */
export const removeSavedCard = async (id: string): Promise<void> => {
  await api(`/api/payment/payment-methods/${encodeURIComponent(id)}`, { method: 'DELETE' });
};

export function useRemoveSavedCard() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: removeSavedCard,
    onSettled: () => client.invalidateQueries({ queryKey: ['payment-methods'] }),
  });
}
