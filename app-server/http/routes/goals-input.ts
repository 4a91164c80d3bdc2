import type { Context } from 'hono';
import type { z } from 'zod';
import type { UserCommandContext } from '../../commands/goals/command-context.ts';
import type { AppDeps } from '../app.ts';
import type { AppEnv } from '../app-env.ts';
import { HttpError } from '../errors.ts';

/** Parses with a shared schema; a failure answers 400 with the schema's (spec's) message for the first issue. */
export function parseWith<Schema extends z.ZodType>(schema: Schema, value: unknown): z.output<Schema> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw new HttpError(400, result.error.issues[0]?.message ?? 'Invalid request');
}

/** The JSON body; an empty body reads as `{}`, anything not JSON answers 400 (never a 500). */
export async function readJson(c: Context<AppEnv>): Promise<unknown> {
  const text = await c.req.text();
  if (text.trim() === '') return {};
  try {
    return JSON.parse(text);
  } catch {
    throw new HttpError(400, 'Request body must be valid JSON');
  }
}

/** The command context of the signed-in caller. */
export function commandContext(deps: AppDeps, c: Context<AppEnv>): UserCommandContext {
  return {
    store: deps.store,
    database: deps.database,
    userId: c.var.userId,
    now: deps.clock.now(),
    correlationId: c.var.requestId,
  };
}
