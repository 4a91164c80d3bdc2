import type { Stake } from '../../../lib/api-types.ts';

/** The app's page where a group mate vouches for a runner's appealed week (app/router.tsx). */
export const vouchPath = (stakeId: string): string => `/vouch/${encodeURIComponent(stakeId)}`;

/**
 * The web app's address a group mate can open, or null when this app does not know one. On the web it is the page's
 * own origin. The native shell's origin (capacitor://localhost, https://localhost) opens nothing on another phone;
 * its web app is known only when the shell calls the API on the web app's own origin (`<web origin>/api`, the way
 * `npm start` serves both), so that origin is the link's, and any other API address gives no link.
 */
export function shareableOrigin(platformName: 'web' | 'ios' | 'android', pageOrigin: string, apiUrl: string) {
  if (platformName === 'web') return pageOrigin;
  try {
    const api = new URL(apiUrl);
    return api.pathname.replace(/\/$/, '') === '/api' ? api.origin : null;
  } catch {
    return null;
  }
}

/** The link a runner sends a group mate, or null without an address another phone can open. */
export const vouchLink = (stakeId: string, origin: string | null): string | null =>
  origin === null ? null : `${origin}${vouchPath(stakeId)}`;

/** Whether a group mate can still vouch: while the appeal waits for a decision (open, or referred to a person). */
export const canAskForVouch = (stake: Partial<Pick<Stake, 'appeal'>>): boolean =>
  stake.appeal?.status === 'open' || stake.appeal?.status === 'referred';

/** What the server's 404 means on the vouch page: no shared group (or no such stake), told without saying which. */
export const NOT_YOURS_TO_VOUCH = "This appeal is not one you can vouch for: only members of the runner's groups can.";

/** The sentence for a refused vouch: the 404 explained, any other refusal in the server's own words. */
export function vouchRefusalText(status: number, serverMessage: string): string {
  return status === 404 ? NOT_YOURS_TO_VOUCH : serverMessage;
}
