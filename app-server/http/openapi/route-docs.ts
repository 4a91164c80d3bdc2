import type { z } from 'zod';
import {
  ActiveSurgeResponse,
  BadgeDefinitionsResponse,
  BadgesResponse,
  CelebrateResponse,
  LevelResponse,
  StreakResponse,
  SurgeListResponse,
  XpHistoryResponse,
} from './response-schemas.ts';
import { BadgeIdParam, BadgesQuery } from '../routes/me/badges.ts';
import { XpHistoryQuery } from '../routes/me/progress.ts';
import { RealtimeQuery } from '../routes/realtime.ts';
import { SurgeHistoryQuery } from '../routes/surge.ts';
import { OPERATOR_SURGES_PATH, OperatorSurgeIdParam } from '../routes/operator-surges.ts';
import { scheduleSurgeBody } from '../../operator/surge-schedule.ts';
import { PRODUCT_ROUTE_DOCS } from './product-route-docs.ts';
import { LIMIT, type RouteLimit } from '../limits/route-limits.ts';

/** One route's contract: the same zod schemas the handler parses with, turned into OpenAPI by openapi-document.ts. */
export interface RouteDoc {
  readonly method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  /** Hono's form, `/me/badges/:id/celebrate`. */
  readonly path: string;
  readonly summary: string;
  /** What a client must know beyond the summary (OpenAPI `description`, CommonMark), e.g. how a repeat is answered. */
  readonly description?: string;
  readonly tag: string;
  /** Needs a bearer token. */
  readonly auth: boolean;
  readonly query?: z.ZodType;
  readonly params?: z.ZodType;
  readonly body?: z.ZodType;
  /** The 200 answer; `text/event-stream` routes give none. */
  readonly response?: z.ZodType;
  readonly eventStream?: boolean;
  /** Error statuses worth listing besides 400 (and 401 when `auth`). */
  readonly errors?: readonly number[];
  /** Takes an `Idempotency-Key` header: a retry with the same key answers with the first result (422: other body). */
  readonly idempotent?: boolean;
  /** The request limit policy (limits/route-limits.ts): required, so a route without one does not compile. */
  readonly limit: RouteLimit;
}

/**
 * Documented routes. Add an entry beside each new route: the OpenAPI test fails for a route of the app that is
 * missing from the document, and routes not described here are listed with a generic answer only.
 */
export const ROUTE_DOCS: readonly RouteDoc[] = [
  {
    method: 'get',
    path: '/me/streak',
    summary: 'Current and longest weekly streak (§3 user_streaks)',
    limit: LIMIT.read,
    tag: 'gamification',
    auth: true,
    response: StreakResponse,
  },
  {
    method: 'get',
    path: '/me/xp-history',
    summary: 'XP history, newest first; with run_ids, the XP each of those runs earned (surge bonus included)',
    limit: LIMIT.read,
    tag: 'gamification',
    auth: true,
    query: XpHistoryQuery,
    response: XpHistoryResponse,
  },
  {
    method: 'get',
    path: '/me/xp',
    summary: 'Total XP, level and tier',
    limit: LIMIT.read,
    tag: 'gamification',
    auth: true,
    response: LevelResponse,
  },
  {
    method: 'get',
    path: '/me/badges',
    summary: 'Earned badges, newest first; uncelebrated=true&limit=5 for the celebration pop-up',
    limit: LIMIT.read,
    tag: 'badges',
    auth: true,
    query: BadgesQuery,
    response: BadgesResponse,
  },
  {
    method: 'post',
    path: '/me/badges/:id/celebrate',
    summary: 'Record that the badge celebration was shown and closed',
    limit: LIMIT.write,
    tag: 'badges',
    auth: true,
    params: BadgeIdParam,
    response: CelebrateResponse,
    errors: [404, 409],
  },
  {
    method: 'get',
    path: '/badges/definitions',
    summary: 'The 12 badge definitions',
    limit: LIMIT.public,
    tag: 'badges',
    auth: false,
    response: BadgeDefinitionsResponse,
  },
  {
    method: 'get',
    path: '/surge/active',
    summary: 'The surge in force now, or null (refetched every 60 s)',
    limit: LIMIT.public,
    tag: 'surge',
    auth: false,
    response: ActiveSurgeResponse,
  },
  {
    method: 'get',
    path: '/surge/upcoming',
    summary: 'Scheduled surges, soonest first',
    limit: LIMIT.public,
    tag: 'surge',
    auth: false,
    response: SurgeListResponse,
  },
  {
    method: 'get',
    path: '/surge/history',
    summary: 'Ended and canceled surges, newest first',
    limit: LIMIT.public,
    tag: 'surge',
    auth: false,
    query: SurgeHistoryQuery,
    response: SurgeListResponse,
  },
  {
    method: 'post',
    path: OPERATOR_SURGES_PATH,
    summary: 'Operator: schedule an XP surge (Authorization: Bearer OPERATOR_TOKEN; what `npm run surge` uses)',
    description:
      'Refused with 403 when the server has no OPERATOR_TOKEN or the token is wrong, 401 without one; 409 when the surge overlaps another or starts in the past. Answers once GET /surge/upcoming shows it.',
    limit: LIMIT.write,
    tag: 'operator',
    auth: false,
    body: scheduleSurgeBody,
    errors: [401, 403, 409],
  },
  {
    method: 'get',
    path: OPERATOR_SURGES_PATH,
    summary: 'Operator: every surge of the schedule, canceled and ended ones too, with its status',
    limit: LIMIT.read,
    tag: 'operator',
    auth: false,
    errors: [401, 403],
  },
  {
    method: 'delete',
    path: `${OPERATOR_SURGES_PATH}/:id`,
    summary: 'Operator: cancel a surge that has not started',
    limit: LIMIT.write,
    tag: 'operator',
    auth: false,
    params: OperatorSurgeIdParam,
    errors: [401, 403, 404, 409],
  },
  {
    method: 'get',
    path: '/realtime',
    summary: 'Server-Sent Events: `changed` with the topics (goals, runs, streak, badges, xp, feed…) to refetch',
    limit: LIMIT.stream,
    tag: 'realtime',
    auth: true,
    query: RealtimeQuery,
    eventStream: true,
  },
  ...PRODUCT_ROUTE_DOCS,
];
