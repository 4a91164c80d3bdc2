import { StravaAuthRevoked } from '../adapters/strava/strava-client.ts';
import { accessTokenFor, type ExternalAccount, findAccountById } from './external-accounts.ts';
import type { SyncDeps } from './sync-activities.ts';

/**
 * Runs Strava calls with a valid access token. A 401 on a call is double-checked with a forced refresh before it
 * is believed: only when Strava also refuses the refresh token does StravaAuthRevoked escape, and the caller then
 * drops the account (the athlete deauthorized the app).
 */
export async function withAccessToken<T>(
  deps: SyncDeps,
  account: ExternalAccount,
  now: Date,
  work: (accessToken: string) => Promise<T>,
): Promise<T> {
  const token = await accessTokenFor(deps, account, now);
  try {
    return await work(token);
  } catch (error) {
    if (!(error instanceof StravaAuthRevoked)) throw error;
    const current = (await findAccountById(deps.db, account.id)) ?? account;
    return work(await accessTokenFor(deps, current, now, { force: true }));
  }
}
