import type { Context, MiddlewareHandler } from 'hono';
import type { RouterRoute } from 'hono/types';
import { clientIp } from '../../auth/request.ts';
import type { AuthCore } from '../../auth/auth-core.ts';
import type { Clock } from '../../clock.ts';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/database.ts';
import type { AppEnv } from '../app-env.ts';
import { HttpError } from '../errors.ts';
import {
  databaseLimitCounter,
  type CountedKey,
  type LimitCounter,
  memoryLimitCounter,
} from '../limits/limit-counter.ts';
import {
  type Budget,
  LIMIT,
  LIMIT_CLASSES,
  type LimitClass,
  mountedLimit,
  type RouteLimit,
  scaled,
} from '../limits/route-limits.ts';
import { ROUTE_DOCS } from '../openapi/route-docs.ts';

/** The answer's sentence: `{ "error": "Too many requests. Try again in 12 seconds." }` with Retry-After: 12. */
export function tooManyRequests(c: Context, retryAfter: number, what = 'Too many requests'): HttpError {
  c.header('Retry-After', String(retryAfter));
  const unit = retryAfter === 1 ? 'second' : 'seconds';
  return new HttpError(429, `${what}. Try again in ${retryAfter} ${unit}.`, { code: 'rate_limited' });
}

export interface RequestLimiterDeps {
  readonly config: Config;
  readonly auth: AuthCore;
  readonly database: Database;
  readonly clock: Clock;
}

/** The counters and the caller's identity, shared by the middleware and the routes with limits of their own. */
export interface RequestLimiter {
  readonly middleware: MiddlewareHandler<AppEnv>;
  /** Counts `keys` (named per user and per address by the caller) in the database; 429 when one is over. */
  hit(c: Context, budgets: readonly (readonly [key: string, budget: Budget])[]): Promise<ReadonlyMap<string, Date>>;
  release(taken: ReadonlyMap<string, Date>): Promise<void>;
  /** The caller's address as every limit sees it. */
  address(c: Context): string;
}

/** The last route Hono matched that is not middleware (its handler), whose path names the policy. */
export function matchedRoute(c: Context): RouterRoute | undefined {
  const routes = c.req.matchedRoutes;
  for (let i = routes.length - 1; i >= 0; i--) if (routes[i]!.method !== 'ALL') return routes[i];
  return undefined;
}

/** `GET /goals/:id` → its declared policy; mounted apps by prefix; unknown routes (404s) count as public reads. */
export function policyIndex(): (method: string, path: string) => RouteLimit | null {
  const declared = new Map(ROUTE_DOCS.map((d) => [`${d.method.toUpperCase()} ${d.path}`, d.limit]));
  return (method, path) => declared.get(`${method.toUpperCase()} ${path}`) ?? mountedLimit(path);
}

/** The bearer token of the request (header, or `?access_token=` for EventSource), or null. */
function bearer(c: Context): string | null {
  const header = /^Bearer\s+(\S+)$/i.exec(c.req.header('authorization') ?? '')?.[1];
  return header ?? c.req.query('access_token') ?? null;
}

/**
 * The request limits of the product API: one middleware, applied in app.ts before any body is read, that finds the
 * matched route's declared policy (route-limits.ts) and counts the request per signed-in user and per address.
 * The user is the token's subject once its signature verifies (verified tokens are remembered by the token service,
 * so this costs a map lookup); the route's own guard still checks the session. A forged or expired token counts
 * per address only, and the guard answers 401.
 */
export function createRequestLimiter(deps: RequestLimiterDeps): RequestLimiter {
  const multiplier = deps.config.RATE_LIMIT_MULTIPLIER;
  const counters: Record<LimitClass['countedIn'], LimitCounter> = {
    database: databaseLimitCounter(deps.database.db, deps.clock),
    memory: memoryLimitCounter(deps.clock),
  };
  const policyOf = policyIndex();
  const policies = new WeakMap<RouterRoute, RouteLimit>();
  const address = (c: Context) => clientIp(c, deps.config.AUTH_TRUST_PROXY);
  const userOf = async (c: Context): Promise<string | null> => {
    const token = bearer(c);
    if (!token) return null;
    try {
      return (await deps.auth.tokens.verify(token)).sub;
    } catch {
      return null;
    }
  };

  const middleware: MiddlewareHandler<AppEnv> = async (c, next) => {
    c.set('limits', limiter);
    if (multiplier === 0) return next();
    const route = matchedRoute(c);
    let policy: RouteLimit = LIMIT.public;
    if (route) {
      const known = policies.get(route);
      if (known) policy = known;
      else {
        policy = policyOf(route.method, route.path) ?? LIMIT.public;
        policies.set(route, policy);
      }
    }
    if (policy.class === 'auth-service') return next();
    const spec: LimitClass = LIMIT_CLASSES[policy.class];
    const keys: CountedKey[] = [];
    const perAddress = scaled(spec.perAddress, multiplier)!;
    keys.push({ key: `${policy.class}:ip:${address(c)}`, max: perAddress.max });
    if (spec.perUser) {
      const user = await userOf(c);
      if (user) keys.push({ key: `${policy.class}:u:${user}`, max: scaled(spec.perUser, multiplier)!.max });
    }
    const counter = deps.config.RATE_LIMIT_SHARED_READS ? counters.database : counters[spec.countedIn];
    const verdict = await counter.hit(keys, spec.perAddress.windowSeconds);
    if (!verdict.allowed) throw tooManyRequests(c, verdict.retryAfter);
    return next();
  };

  const limiter: RequestLimiter = {
    middleware,
    address,
    async hit(c, budgets) {
      const scaledBudgets = budgets.map(([key, budget]) => [key, scaled(budget, multiplier)] as const);
      if (scaledBudgets.some(([, b]) => b === null)) return new Map();
      const windowSeconds = budgets[0]?.[1].windowSeconds ?? 60;
      const verdict = await counters.database.hit(
        scaledBudgets.map(([key, b]) => ({ key, max: b!.max })),
        windowSeconds,
      );
      if (!verdict.allowed) throw tooManyRequests(c, verdict.retryAfter);
      return verdict.windows;
    },
    release: (taken) => counters.database.release(taken),
  };
  return limiter;
}
