import { api } from '../../../lib/api.ts';

/** PUT /me/preferences with the wizard's remember-charity choice (§7 user_preferences upsert). */
export const saveCharityPreference = (charityId: string | null, remember: boolean) =>
  api<unknown>('/me/preferences', {
    method: 'PUT',
    body: { default_charity_id: remember ? charityId : null, remember_charity: remember },
  });
