import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import type { ReactionEmoji } from '../../../lib/api-types.ts';

/** POST /feed/{id}/reactions to add, DELETE /feed/{id}/reactions/{emoji} to take one's own back (§6). */
export function toggleReaction(eventId: string, emoji: ReactionEmoji, on: boolean) {
  const id = encodeURIComponent(eventId);
  return on
    ? api<unknown>(`/feed/${id}/reactions`, { method: 'POST', body: { emoji } })
    : api<unknown>(`/feed/${id}/reactions/${emoji}`, { method: 'DELETE' });
}

/** Reaction failures are only logged (§8); either way the feed is refetched so counts are the server's. */
export function useToggleReaction() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (v: { eventId: string; emoji: ReactionEmoji; on: boolean }) => toggleReaction(v.eventId, v.emoji, v.on),
    onError: (error) => console.warn('reaction failed', error),
    onSettled: () => client.invalidateQueries({ queryKey: ['feed'] }),
  });
}
