import { z } from 'zod';
import { ErrorResponse } from './response-schemas.ts';
import { ROUTE_DOCS, type RouteDoc } from './route-docs.ts';
import { describeLimit, mountedLimit, type RouteLimit } from '../limits/route-limits.ts';

/** A route as Hono lists it in `app.routes`. */
export interface RegisteredRoute {
  readonly method: string;
  readonly path: string;
}

type Operation = Record<string, unknown>;
const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

/** `/goals/:id/stats` → `/goals/{id}/stats`. */
export function openApiPath(honoPath: string): string {
  return honoPath.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
}

const inputSchema = (schema: z.ZodType) => z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' });
const outputSchema = (schema: z.ZodType) => z.toJSONSchema(schema, { io: 'output', unrepresentable: 'any' });
const json = (schema: unknown) => ({ 'application/json': { schema } });
/** What each listed error status means, for the document. */
const ERROR_DESCRIPTIONS: Readonly<Record<number, string>> = {
  403: 'Forbidden',
  404: 'Not found (or not yours)',
  409: 'Conflict',
  429: 'Too many requests; retry after the Retry-After header’s seconds',
  501: 'Not implemented (a provider announced but not built)',
  502: 'The provider failed',
  503: 'Unavailable: the database is unreachable for now (retry after the Retry-After header’s seconds; nothing was saved), or a service this route needs is not configured (`error` says which)',
};
const errorAnswer = (description: string) => ({ description, content: json(outputSchema(ErrorResponse)) });

function parameters(schema: z.ZodType | undefined, where: 'query' | 'path') {
  if (!schema) return [];
  const js = inputSchema(schema) as { properties?: Record<string, unknown>; required?: string[] };
  return Object.entries(js.properties ?? {}).map(([name, s]) => ({
    name,
    in: where,
    required: where === 'path' || (js.required ?? []).includes(name),
    schema: s,
  }));
}

/** The header of creating routes (see app-server/commands/idempotency/keyed-request.ts). */
const idempotencyKeyHeader = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description: 'A new key (a UUID) per user action, sent again on retries: the first result is answered, once',
  schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7e]+$' },
};

/** The route's request limit as `x-rate-limit`, and its 429 answer (the auth service documents its own). */
function limited(limit: RouteLimit, multiplier: number, responses: Record<string, unknown>) {
  if (limit.class !== 'auth-service') responses['429'] ??= errorAnswer(ERROR_DESCRIPTIONS[429]!);
  return { 'x-rate-limit': describeLimit(limit, multiplier) };
}

function documented(doc: RouteDoc, multiplier: number): Operation {
  const params = [
    ...parameters(doc.params, 'path'),
    ...parameters(doc.query, 'query'),
    ...(doc.idempotent ? [idempotencyKeyHeader] : []),
  ];
  const responses: Record<string, unknown> = {
    '200': doc.eventStream
      ? { description: 'An event stream', content: { 'text/event-stream': { schema: { type: 'string' } } } }
      : { description: 'OK', content: json(outputSchema(doc.response ?? z.unknown())) },
    '400': errorAnswer('Bad input: `error` names the field and the rule'),
  };
  if (doc.auth) responses['401'] = errorAnswer('Missing, invalid or expired bearer token');
  for (const status of doc.errors ?? []) responses[String(status)] = errorAnswer(ERROR_DESCRIPTIONS[status] ?? 'Error');
  if (doc.idempotent) responses['422'] = errorAnswer('The Idempotency-Key was first used for a different request');
  // Any route that reads or writes the database: nothing was saved, come back after Retry-After seconds.
  responses['503'] ??= errorAnswer(ERROR_DESCRIPTIONS[503]!);
  return {
    summary: doc.summary,
    ...(doc.description ? { description: doc.description } : {}),
    tags: [doc.tag],
    ...(doc.auth ? { security: [{ bearer: [] }] } : {}),
    ...(params.length > 0 ? { parameters: params } : {}),
    ...(doc.body ? { requestBody: { required: true, content: json(inputSchema(doc.body)) } } : {}),
    responses,
    ...limited(doc.limit, multiplier, responses),
  };
}

function generic(method: string, path: string, honoPath: string, multiplier: number): Operation {
  const params = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => ({
    name: m[1],
    in: 'path',
    required: true,
    schema: { type: 'string' },
  }));
  const responses: Record<string, unknown> = { '200': { description: 'OK' }, default: errorAnswer('Error') };
  // A route without a declared policy has no `x-rate-limit`: the route-policy test (rate-limits.test.ts) fails.
  const limit = mountedLimit(honoPath);
  return {
    summary: `${method.toUpperCase()} ${path}`,
    tags: [path.split('/')[1] ?? 'api'],
    ...(params.length > 0 ? { parameters: params } : {}),
    responses,
    ...(limit ? limited(limit, multiplier, responses) : {}),
  };
}

/**
 * The OpenAPI 3.1 document of the app: every route Hono has registered (middleware, listed as method ALL, is not
 * a route), with the zod schemas of ROUTE_DOCS where a route is described there.
 */
export function buildOpenApiDocument(routes: readonly RegisteredRoute[], rateLimitMultiplier = 1) {
  const paths: Record<string, Record<string, Operation>> = {};
  const add = (method: string, honoPath: string, operation: Operation) => {
    const path = openApiPath(honoPath);
    paths[path] ??= {};
    paths[path][method] ??= operation;
  };
  for (const doc of ROUTE_DOCS) add(doc.method, doc.path, documented(doc, rateLimitMultiplier));
  for (const route of routes) {
    const method = route.method.toLowerCase();
    if (!(METHODS as readonly string[]).includes(method) || route.path.includes('*')) continue;
    add(method, route.path, generic(method, openApiPath(route.path), route.path, rateLimitMultiplier));
  }
  return {
    openapi: '3.1.0',
    info: { title: 'StrideStake API', version: '1' },
    components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
    paths,
  };
}
