import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** The stand-in's application credentials; a runtime under test is configured with these. */
export const STRAVA_CLIENT_ID = '4242';
export const STRAVA_CLIENT_SECRET = 'stand-in-client-secret';

const HOUR = 3_600_000;

export interface FakeActivity {
  id: number;
  athleteId: number;
  sportType: string;
  startMs: number;
  distanceM: number;
  movingTimeSec: number;
  trainer?: boolean;
  /** A GPS track at 10 km/h, a fix every 10 s (none for a treadmill). */
  track: boolean;
}

export interface LoggedRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  form: URLSearchParams;
  at: number;
}

/**
 * A stand-in for Strava on a local port: OAuth (codes, 6 h access tokens checked against the test clock, refresh
 * tokens rotated on every refresh so only the newest works), deauthorization, the activity list, one activity and
 * its streams, rate-limit headers on every answer, and injected failures (a 500 once, 429s).
 */
export class FakeStrava {
  readonly requests: LoggedRequest[] = [];
  readonly activities = new Map<number, FakeActivity>();
  readonly codes = new Map<string, number>();
  readonly access = new Map<string, { athleteId: number; expiresMs: number }>();
  readonly refresh = new Map<string, number>();
  /** Answers the next matching requests with this status (and headers) instead. */
  readonly failures: {
    match: (r: LoggedRequest) => boolean;
    status: number;
    headers?: Record<string, string>;
    times: number;
  }[] = [];
  #server: Server | null = null;
  #issued = 0;
  url = '';
  /** Judges token expiry by the server's (manual) clock. */
  clock: { now(): Date } = { now: () => new Date() };
  /**
   * What the athlete does on the authorization page a browser is sent to (GET /oauth/authorize): approve as this
   * athlete, granting these scopes, or deny.
   */
  consent: { athleteId: number; decision: 'approve' | 'deny'; scope?: string } = { athleteId: 1, decision: 'approve' };

  async start(): Promise<void> {
    this.#server = createServer((req, res) => void this.#answer(req, res));
    // Idle connections are closed by the client only: when the test's process is busy for seconds (thousands of
    // in-process requests), the server's keep-alive timer and the client's reuse of the socket race, and the request
    // that loses is reset (ECONNRESET), which the app reads as Strava being unreachable.
    this.#server.keepAliveTimeout = 0;
    await new Promise<void>((resolve) => this.#server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => this.#server?.close(() => resolve()));
  }

  count(path: string | RegExp): number {
    return this.requests.filter((r) => (typeof path === 'string' ? r.path === path : path.test(r.path))).length;
  }

  add(activity: FakeActivity): void {
    this.activities.set(activity.id, activity);
  }

  /** The athlete revokes the app in Strava's settings: every token stops working. */
  revoke(athleteId: number): void {
    for (const [token, a] of this.access) if (a.athleteId === athleteId) this.access.delete(token);
    for (const [token, a] of this.refresh) if (a === athleteId) this.refresh.delete(token);
  }

  #issue(athleteId: number) {
    this.#issued++;
    const accessToken = `access-${athleteId}-${this.#issued}`;
    const refreshToken = `refresh-${athleteId}-${this.#issued}`;
    const expiresMs = this.clock.now().getTime() + 6 * HOUR;
    this.access.set(accessToken, { athleteId, expiresMs });
    this.refresh.set(refreshToken, athleteId);
    return {
      token_type: 'Bearer',
      access_token: accessToken,
      refresh_token: refreshToken,
      expires_at: Math.floor(expiresMs / 1000),
      expires_in: 6 * 3600,
      athlete: { id: athleteId, firstname: 'Private', lastname: 'Name' },
    };
  }

  async #answer(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://x');
    let raw = '';
    for await (const chunk of req) raw += chunk;
    const request: LoggedRequest = {
      method: req.method ?? 'GET',
      path: url.pathname,
      query: url.searchParams,
      form: new URLSearchParams(raw),
      at: this.clock.now().getTime(),
    };
    this.requests.push(request);
    const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, {
        'content-type': 'application/json',
        'x-ratelimit-limit': '200,2000',
        'x-ratelimit-usage': `${this.requests.length % 200},${this.requests.length}`,
        ...headers,
      });
      res.end(JSON.stringify(body));
    };
    if (request.method === 'GET' && request.path === '/oauth/authorize') return this.#authorize(url, res);
    const failure = this.failures.find((f) => f.times > 0 && f.match(request));
    if (failure) {
      failure.times--;
      return send(failure.status, { message: 'injected' }, failure.headers);
    }
    if (request.method === 'POST' && request.path === '/oauth/token') return this.#token(request, send);
    if (request.method === 'POST' && request.path === '/oauth/deauthorize') {
      const token = this.access.get(request.form.get('access_token') ?? '');
      if (!token) return send(401, { message: 'Authorization Error' });
      this.revoke(token.athleteId);
      return send(200, { access_token: request.form.get('access_token') });
    }
    const bearer = (req.headers.authorization ?? '').replace(/^Bearer /, '');
    const grant = this.access.get(bearer);
    if (!grant || grant.expiresMs <= this.clock.now().getTime()) return send(401, { message: 'Authorization Error' });
    if (request.path === '/api/v3/athlete/activities') {
      const after = Number(url.searchParams.get('after') ?? 0) * 1000;
      const before = Number(url.searchParams.get('before') ?? Number.MAX_SAFE_INTEGER / 1000) * 1000;
      const page = Number(url.searchParams.get('page') ?? 1);
      const perPage = Number(url.searchParams.get('per_page') ?? 30);
      const list = [...this.activities.values()]
        .filter((a) => a.athleteId === grant.athleteId && a.startMs > after && a.startMs < before)
        .sort((a, b) => a.startMs - b.startMs || a.id - b.id)
        .slice((page - 1) * perPage, page * perPage);
      return send(200, list.map(json));
    }
    const streams = /^\/api\/v3\/activities\/(\d+)\/streams$/.exec(request.path);
    const single = /^\/api\/v3\/activities\/(\d+)$/.exec(request.path);
    const activity = this.activities.get(Number((streams ?? single)?.[1]));
    if (!activity) return send(404, { message: 'Record Not Found' });
    if (single) return send(200, json(activity));
    if (!activity.track) return send(404, { message: 'Record Not Found' });
    const steps = Math.round(activity.movingTimeSec / 10);
    const metresPerStep = activity.distanceM / steps;
    const latlng = Array.from({ length: steps + 1 }, (_, i) => [51.5 + (i * metresPerStep) / 111_195, -0.12]);
    const time = Array.from({ length: steps + 1 }, (_, i) => i * 10);
    return send(200, { latlng: { data: latlng }, time: { data: time } });
  }

  /** Strava's authorization page, decided at once by `consent`: back to redirect_uri with a code or an error. */
  #authorize(url: URL, res: ServerResponse): void {
    const back = new URL(url.searchParams.get('redirect_uri') ?? '');
    back.searchParams.set('state', url.searchParams.get('state') ?? '');
    if (this.consent.decision === 'deny') back.searchParams.set('error', 'access_denied');
    else {
      const code = `code-${this.consent.athleteId}-${this.requests.length}`;
      this.codes.set(code, this.consent.athleteId);
      back.searchParams.set('code', code);
      back.searchParams.set('scope', this.consent.scope ?? url.searchParams.get('scope') ?? '');
    }
    res.writeHead(302, { location: back.toString() }).end();
  }

  #token(request: LoggedRequest, send: (status: number, body: unknown) => void) {
    if (
      request.form.get('client_id') !== STRAVA_CLIENT_ID ||
      request.form.get('client_secret') !== STRAVA_CLIENT_SECRET
    ) {
      return send(401, {
        message: 'Bad Request',
        errors: [{ resource: 'Application', field: 'client_id', code: 'invalid' }],
      });
    }
    if (request.form.get('grant_type') === 'authorization_code') {
      const athleteId = this.codes.get(request.form.get('code') ?? '');
      if (athleteId === undefined)
        return send(400, {
          message: 'Bad Request',
          errors: [{ resource: 'AuthorizationCode', field: 'code', code: 'invalid' }],
        });
      this.codes.delete(request.form.get('code')!);
      return send(200, this.#issue(athleteId));
    }
    const athleteId = this.refresh.get(request.form.get('refresh_token') ?? '');
    if (request.form.get('grant_type') !== 'refresh_token' || athleteId === undefined) {
      return send(400, {
        message: 'Bad Request',
        errors: [{ resource: 'RefreshToken', field: 'refresh_token', code: 'invalid' }],
      });
    }
    // Rotate: the old refresh token stops working, so a client that kept it would be locked out.
    this.refresh.delete(request.form.get('refresh_token')!);
    return send(200, this.#issue(athleteId));
  }
}

function json(a: FakeActivity) {
  return {
    id: a.id,
    athlete: { id: a.athleteId },
    name: 'Morning Run',
    sport_type: a.sportType,
    type: a.sportType,
    distance: a.distanceM,
    moving_time: a.movingTimeSec,
    elapsed_time: a.movingTimeSec + 30,
    start_date: new Date(a.startMs).toISOString().replace('.000Z', 'Z'),
    manual: false,
    trainer: a.trainer ?? false,
    flagged: false,
    private: false,
  };
}
