import type { Context } from 'hono';
import { z } from 'zod';
import { PATH_ID_RULE, pathIdSchema } from '../../domain/validation/text.ts';
import type { UserCommandContext } from '../commands/command-context.ts';
import { IdempotencyKeyReusedError, KEY_REUSED } from '../commands/idempotency/claim-key.ts';
import { claimKeyedRequest, type KeyedRequest, unkeyedRequest } from '../commands/idempotency/keyed-request.ts';
import { requestKey } from '../commands/idempotency/request-key.ts';
import type { AppDeps } from './app.ts';
import type { AppEnv } from './app-env.ts';
import { HttpError } from './errors.ts';
import { IDEMPOTENCY_KEYS_PER_USER } from './limits/route-limits.ts';
import { recordingWrites, requestAppends } from './request-writes.ts';

/*
 * Reading a product-API request, in one place: every route parses its body, query and path through these, so a
 * 400 reads the same whoever wrote the route — `{ "error": <one sentence> }`. The sentence is the schema's own
 * message where the schema gives one (the spec's texts: 'Please enter a valid target value greater than 0'), and
 * zod's message prefixed with the field where it does not ('limit: Invalid input: expected number, received NaN').
 */

/** zod's own message for an issue the schema gave no message for, prefixed with the field it is about. */
const fieldNamedDefault: z.core.$ZodErrorMap = (issue) => {
  const base = z.config().localeError?.(issue);
  const message = typeof base === 'string' ? base : (base?.message ?? 'Invalid request');
  const where = issue.path?.map(String).join('.') ?? '';
  return where ? `${where}: ${message}` : message;
};

/**
 * Parses a body, query or path with a schema; a mismatch answers 400 with the first issue's sentence.
 * @example const body = parseRequest(createGoalBodySchema, await readJson(c));
 */
export function parseRequest<Schema extends z.ZodType>(schema: Schema, input: unknown): z.output<Schema> {
  const result = schema.safeParse(input, { error: fieldNamedDefault });
  if (result.success) return result.data;
  throw new HttpError(400, result.error.issues[0]?.message ?? 'Invalid request');
}

/** A query string with nothing in it (anything else is a mistake worth a 400). */
export const noQuery = z.strictObject({});

/** A `limit` query parameter from 1 to `max`, `fallback` when absent; messages name the field like every 400. */
export function limitQuery(max: number, fallback: number) {
  return z.coerce
    .number({ message: 'limit: must be a number' })
    .int({ message: 'limit: must be a whole number' })
    .min(1, { message: `limit: must be between 1 and ${max}` })
    .max(max, { message: `limit: must be between 1 and ${max}` })
    .default(fallback);
}

/** The JSON body; an empty body reads as `{}`, anything not JSON answers 400 (never a 500). */
export async function readJson(c: Context<AppEnv>): Promise<unknown> {
  // Parsed already by the check every body goes through first (a GPS track is 50–200 KB of JSON).
  const parsed = c.get('jsonBody');
  if (parsed) return parsed.value;
  const text = await c.req.text();
  if (text.trim() === '') return {};
  try {
    return JSON.parse(text);
  } catch {
    throw new HttpError(400, 'Request body must be valid JSON');
  }
}

/** The `{id}` of the path (or another parameter), checked for the id format before it reaches SQL: else 400. */
export function pathId(c: Context<AppEnv>, name = 'id'): string {
  const value = c.req.param(name);
  if (!pathIdSchema.safeParse(value).success) throw new HttpError(400, `${name}: ${PATH_ID_RULE}`);
  return value as string;
}

/** What an `Idempotency-Key` may be: 1 to 255 visible ASCII characters (a UUID per user action is best). */
const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/;
export const BAD_IDEMPOTENCY_KEY = 'Idempotency-Key must be 1 to 255 visible ASCII characters, such as a UUID';

/** The request's Idempotency-Key header, or null when it has none; a malformed one answers 400. */
function idempotencyKeyOf(c: Context<AppEnv>): string | null {
  const key = c.req.header('idempotency-key');
  if (key === undefined) return null;
  if (!IDEMPOTENCY_KEY.test(key)) throw new HttpError(400, BAD_IDEMPOTENCY_KEY);
  return key;
}

/**
 * The command context of the signed-in caller (a route behind the `requireUser` guard). Its store notes what the
 * request appends, from which its read-your-writes wait follows (request-writes.ts, read-your-writes.ts).
 */
export function commandContext(deps: AppDeps, c: Context<AppEnv>): UserCommandContext {
  return {
    store: recordingWrites(c, deps.store),
    database: deps.database,
    userId: c.var.userId,
    now: deps.clock.now(),
    correlationId: c.var.requestId,
  };
}

/**
 * A write request that takes an `Idempotency-Key` (POST /runs, /goals, /groups …): its command runs through the
 * answer's `once` (commands/idempotency/keyed-request.ts, where the whole mechanism is told). With a key, the key is
 * claimed for this user, route and `body` (the JSON as sent) — 422 when it was first used for another request — and a
 * retry answers the result the first execution recorded. The only reader of the header (tests/lint/idempotency-key).
 * Call it after the body passed its schema: a refused body does not use up the key.
 * @example const { goalId, position } = await (await keyedRequest(deps, c, raw)).once((tx) => createGoal(…, tx));
 */
export async function keyedRequest(deps: AppDeps, c: Context<AppEnv>, body: unknown): Promise<KeyedRequest> {
  const key = idempotencyKeyOf(c);
  if (key === null) return unkeyedRequest(deps.database, requestAppends(c));
  const userId = c.var.userId;
  const request = requestKey({ userId, key, route: `${c.req.method} ${c.req.path}`, body });
  // Every key is remembered as long as the account: new keys per user are counted (retries too), before the claim.
  await c.var.limits.hit(c, [[`idempotency-key:u:${userId}`, IDEMPOTENCY_KEYS_PER_USER]]);
  try {
    return await claimKeyedRequest(deps.database, request, deps.clock.now(), requestAppends(c));
  } catch (error) {
    if (error instanceof IdempotencyKeyReusedError) throw new HttpError(422, KEY_REUSED);
    throw error;
  }
}
