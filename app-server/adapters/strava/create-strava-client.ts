import type { Clock } from '../../clock.ts';
import type { Config } from '../../config.ts';
import { createFetchStravaClient } from './fetch-strava-client.ts';
import type { StravaClient } from './strava-client.ts';

/**
 * The Strava client of this process (one per runtime: its rate gate must be shared by the routes and the sync
 * process). `configured` is false until STRAVA_CLIENT_ID and STRAVA_CLIENT_SECRET are set.
 */
export function createStravaClient(config: Config, clock: Clock): StravaClient {
  return createFetchStravaClient({
    baseUrl: config.STRAVA_API_URL,
    clientId: config.STRAVA_CLIENT_ID,
    clientSecret: config.STRAVA_CLIENT_SECRET,
    clock,
  });
}
