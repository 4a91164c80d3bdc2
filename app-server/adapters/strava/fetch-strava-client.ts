import { z } from 'zod';
import type { GpsPosition } from '../../../domain/run/geo.ts';
import type { Clock } from '../../clock.ts';
import { type CallKind, RateGate } from './rate-gate.ts';
import {
  type ActivityPageQuery,
  type StravaActivity,
  StravaApiError,
  StravaAuthRevoked,
  type StravaClient,
  StravaRateLimited,
  type StravaTokenGrant,
} from './strava-client.ts';

export interface FetchStravaClientOptions {
  /** `https://www.strava.com`, or a local stand-in in tests. */
  readonly baseUrl: string;
  readonly clientId: string | undefined;
  readonly clientSecret: string | undefined;
  readonly clock: Clock;
  /** Per-request timeout; default 15 s. */
  readonly timeoutMs?: number;
  readonly fetch?: typeof fetch;
}

const tokenSchema = z.object({
  access_token: z.string().min(1),
  refresh_token: z.string().min(1),
  expires_at: z.number(),
  athlete: z
    .object({ id: z.union([z.number(), z.string()]) })
    .passthrough()
    .optional(),
});

const activitySchema = z.object({
  id: z.union([z.number(), z.string()]),
  sport_type: z.string().optional(),
  type: z.string().optional(),
  distance: z.number().default(0),
  moving_time: z.number().default(0),
  elapsed_time: z.number().optional(),
  start_date: z.string(),
  manual: z.boolean().default(false),
  trainer: z.boolean().default(false),
  flagged: z.boolean().default(false),
  athlete: z
    .object({ id: z.union([z.number(), z.string()]) })
    .passthrough()
    .optional(),
});

const streamsSchema = z.object({
  latlng: z.object({ data: z.array(z.tuple([z.number(), z.number()])) }).optional(),
  time: z.object({ data: z.array(z.number()) }).optional(),
});

function toActivity(raw: z.infer<typeof activitySchema>): StravaActivity {
  return {
    id: String(raw.id),
    sportType: raw.sport_type ?? raw.type ?? 'Unknown',
    distanceM: raw.distance,
    movingTimeSec: raw.moving_time,
    elapsedTimeSec: Math.max(raw.elapsed_time ?? raw.moving_time, raw.moving_time),
    startDate: raw.start_date,
    manual: raw.manual,
    trainer: raw.trainer,
    flagged: raw.flagged,
    athleteId: raw.athlete ? String(raw.athlete.id) : null,
  };
}

function toGrant(raw: z.infer<typeof tokenSchema>): StravaTokenGrant {
  return {
    accessToken: raw.access_token,
    refreshToken: raw.refresh_token,
    expiresAt: new Date(raw.expires_at * 1000),
    athleteId: raw.athlete ? String(raw.athlete.id) : null,
  };
}

/** Keeps at most `max` fixes, evenly spaced, always the last one (a long run at 1 Hz is thousands of points). */
export function thin<T>(points: readonly T[], max: number): T[] {
  if (points.length <= max) return [...points];
  const stride = Math.ceil(points.length / max);
  const kept = points.filter((_, i) => i % stride === 0);
  const last = points[points.length - 1];
  if (last !== undefined && kept[kept.length - 1] !== last) kept.push(last);
  return kept;
}

/** The Strava adapter over `fetch`: OAuth at `/oauth/*`, data at `/api/v3/*`, all through one RateGate. */
export function createFetchStravaClient(options: FetchStravaClientOptions): StravaClient {
  const base = options.baseUrl.replace(/\/+$/, '');
  const doFetch = options.fetch ?? fetch;
  const gate = new RateGate(() => options.clock.now());
  const timeoutMs = options.timeoutMs ?? 15_000;

  const call = async (kind: CallKind, path: string, init: RequestInit = {}): Promise<Response> => {
    const blocked = gate.blockedUntil(kind);
    if (blocked) throw new StravaRateLimited(blocked);
    let response: Response;
    try {
      response = await doFetch(`${base}${path}`, { ...init, signal: AbortSignal.timeout(timeoutMs) });
    } catch (error) {
      throw new StravaApiError(`Strava unreachable: ${(error as Error).message}`, null);
    }
    const reopensAt = gate.observe(response.headers, response.status, kind);
    if (response.status === 429) {
      await response.body?.cancel();
      throw new StravaRateLimited(reopensAt ?? gate.blockedUntil(kind) ?? options.clock.now());
    }
    return response;
  };

  const json = async (response: Response, what: string): Promise<unknown> => {
    try {
      return await response.json();
    } catch {
      throw new StravaApiError(`Strava answered ${what} with something other than JSON`, response.status);
    }
  };

  const fail = async (response: Response, what: string): Promise<never> => {
    await response.body?.cancel();
    if (response.status === 401) throw new StravaAuthRevoked(`Strava refused the access token (${what})`);
    throw new StravaApiError(`Strava answered ${what} with ${response.status}`, response.status);
  };

  const tokenCall = async (params: Record<string, string>, what: string) => {
    if (!options.clientId || !options.clientSecret) throw new StravaApiError('Strava is not configured', null);
    const body = new URLSearchParams({ client_id: options.clientId, client_secret: options.clientSecret, ...params });
    const response = await call('write', '/oauth/token', { method: 'POST', body });
    if (!response.ok) {
      const text = await response.text().catch(() => '');
      // A refused refresh token (`errors: [{ resource: 'RefreshToken', field: 'refresh_token', code: 'invalid' }]`)
      // means the athlete revoked the app. Anything else (a wrong client secret!) must not read as a revocation,
      // or a misconfiguration would drop every connected account.
      if (
        params.grant_type === 'refresh_token' &&
        (response.status === 400 || response.status === 401) &&
        /refresh_?token/i.test(text)
      ) {
        throw new StravaAuthRevoked('Strava refused the refresh token');
      }
      throw new StravaApiError(`Strava answered ${what} with ${response.status}`, response.status);
    }
    const parsed = tokenSchema.safeParse(await json(response, what));
    if (!parsed.success) throw new StravaApiError(`Strava's ${what} answer has no tokens`, response.status);
    return toGrant(parsed.data);
  };

  const authorized = (accessToken: string): RequestInit => ({ headers: { authorization: `Bearer ${accessToken}` } });

  return {
    configured: Boolean(options.clientId && options.clientSecret),

    authorizeUrl({ redirectUri, state, scopes }) {
      const url = new URL(`${base}/oauth/authorize`);
      url.searchParams.set('client_id', options.clientId ?? '');
      url.searchParams.set('redirect_uri', redirectUri);
      url.searchParams.set('response_type', 'code');
      url.searchParams.set('approval_prompt', 'auto');
      url.searchParams.set('scope', scopes.join(','));
      url.searchParams.set('state', state);
      return url.toString();
    },

    exchangeCode(code) {
      return tokenCall({ code, grant_type: 'authorization_code' }, 'the code exchange');
    },

    refresh(refreshToken) {
      return tokenCall({ refresh_token: refreshToken, grant_type: 'refresh_token' }, 'the token refresh');
    },

    async deauthorize(accessToken) {
      const body = new URLSearchParams({ access_token: accessToken });
      const response = await call('write', '/oauth/deauthorize', { method: 'POST', body });
      await response.body?.cancel();
      // Already revoked is as good as revoked.
      if (!response.ok && response.status !== 401) {
        throw new StravaApiError(`Strava answered the deauthorization with ${response.status}`, response.status);
      }
    },

    async listActivities(accessToken, query: ActivityPageQuery) {
      const params = new URLSearchParams({
        after: String(Math.floor(query.after.getTime() / 1000)),
        page: String(query.page),
        per_page: String(Math.min(200, Math.max(1, query.perPage))),
      });
      if (query.before) params.set('before', String(Math.floor(query.before.getTime() / 1000)));
      const response = await call('read', `/api/v3/athlete/activities?${params}`, authorized(accessToken));
      if (!response.ok) return fail(response, 'the activity list');
      const parsed = z.array(z.unknown()).safeParse(await json(response, 'the activity list'));
      if (!parsed.success) throw new StravaApiError('Strava activity list is not a list', response.status);
      // An activity Strava describes oddly is skipped, not allowed to stop the whole page.
      return parsed.data.flatMap((item) => {
        const activity = activitySchema.safeParse(item);
        return activity.success ? [toActivity(activity.data)] : [];
      });
    },

    async getActivity(accessToken, activityId) {
      const response = await call(
        'read',
        `/api/v3/activities/${encodeURIComponent(activityId)}`,
        authorized(accessToken),
      );
      if (response.status === 404) {
        await response.body?.cancel();
        return null;
      }
      if (!response.ok) return fail(response, 'the activity');
      const parsed = activitySchema.safeParse(await json(response, 'the activity'));
      if (!parsed.success) throw new StravaApiError('Strava activity is unreadable', response.status);
      return toActivity(parsed.data);
    },

    async getTrack(accessToken, activity, maxPoints = 1000) {
      const path = `/api/v3/activities/${encodeURIComponent(activity.id)}/streams?keys=latlng,time&key_by_type=true`;
      const response = await call('read', path, authorized(accessToken));
      if (response.status === 404) {
        await response.body?.cancel();
        return [];
      }
      if (!response.ok) return fail(response, 'the activity streams');
      const parsed = streamsSchema.safeParse(await json(response, 'the activity streams'));
      if (!parsed.success) return [];
      const latlng = parsed.data.latlng?.data ?? [];
      const time = parsed.data.time?.data ?? [];
      const startMs = Date.parse(activity.startDate);
      const positions: GpsPosition[] = [];
      for (const [i, [latitude, longitude]] of latlng.entries()) {
        const offset = time[i];
        if (offset === undefined) break;
        positions.push({ latitude, longitude, timestamp: startMs + offset * 1000 });
      }
      return thin(positions, maxPoints);
    },
  };
}
