import { api } from '../../../lib/api.ts';

/** POST /me/badges/{id}/celebrate: sets celebrated_at so the pop-up is not shown on other devices either. */
export const celebrateBadge = (id: string) =>
  api<unknown>(`/me/badges/${encodeURIComponent(id)}/celebrate`, { method: 'POST' });
