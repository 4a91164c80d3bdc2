import type { GpsPosition } from '../../../domain/run/geo.ts';

/** What Strava answers to a code exchange or a refresh. `athleteId` is only known from a code exchange. */
export interface StravaTokenGrant {
  readonly accessToken: string;
  /** Always keep the newest one: Strava may rotate it on any refresh (FACTS). */
  readonly refreshToken: string;
  readonly expiresAt: Date;
  readonly athleteId: string | null;
}

/** The fields of a Strava activity the import reads (FACTS "Activity"). */
export interface StravaActivity {
  readonly id: string;
  readonly sportType: string;
  /** Metres. */
  readonly distanceM: number;
  /** Seconds. */
  readonly movingTimeSec: number;
  /** Seconds from start to finish, pauses included (`elapsed_time`; the moving time when absent). */
  readonly elapsedTimeSec: number;
  /** ISO instant (UTC). */
  readonly startDate: string;
  readonly manual: boolean;
  readonly trainer: boolean;
  readonly flagged: boolean;
  /** The owner's athlete id (checked on webhook fetches: the payload is unsigned). */
  readonly athleteId: string | null;
}

/** A page of the athlete's activities (`GET /athlete/activities`). `page` starts at 1. */
export interface ActivityPageQuery {
  readonly after: Date;
  readonly before?: Date;
  readonly page: number;
  /** At most 200 (Strava's limit). */
  readonly perPage: number;
}

/**
 * The Strava port: OAuth, and the few reads the import needs. Every call goes through one rate gate (per process):
 * past a limit, or after a 429, calls fail with StravaRateLimited *without* reaching Strava until the window resets.
 */
export interface StravaClient {
  readonly configured: boolean;
  /** The consent page address (`response_type=code`, comma-separated scopes). */
  authorizeUrl(options: { redirectUri: string; state: string; scopes: readonly string[] }): string;
  exchangeCode(code: string): Promise<StravaTokenGrant>;
  /** Throws StravaAuthRevoked when Strava refuses the refresh token (deauthorized). */
  refresh(refreshToken: string): Promise<StravaTokenGrant>;
  deauthorize(accessToken: string): Promise<void>;
  listActivities(accessToken: string, query: ActivityPageQuery): Promise<StravaActivity[]>;
  /** Null when Strava says 404 (deleted, or private without `activity:read_all`). */
  getActivity(accessToken: string, activityId: string): Promise<StravaActivity | null>;
  /** The activity's GPS track (latlng + time streams), thinned to at most `maxPoints`; empty when it has none. */
  getTrack(accessToken: string, activity: StravaActivity, maxPoints?: number): Promise<GpsPosition[]>;
}

/** A rate limit is reached: nothing may be sent to Strava before `retryAt`. */
export class StravaRateLimited extends Error {
  readonly retryAt: Date;

  constructor(retryAt: Date) {
    super(`Strava rate limit reached; retry after ${retryAt.toISOString()}`);
    this.name = 'StravaRateLimited';
    this.retryAt = retryAt;
  }
}

/** Strava refused the tokens (the athlete deauthorized the app, or the refresh token is no longer valid). */
export class StravaAuthRevoked extends Error {
  constructor(message = 'Strava authorization revoked') {
    super(message);
    this.name = 'StravaAuthRevoked';
  }
}

/** Any other failed call (network, 5xx, unexpected answer). Retried later by the caller. */
export class StravaApiError extends Error {
  readonly status: number | null;

  constructor(message: string, status: number | null) {
    super(message);
    this.name = 'StravaApiError';
    this.status = status;
  }
}
