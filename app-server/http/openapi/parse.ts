import type { z } from 'zod';
import { HttpError } from '../errors.ts';

/** The first issue of a failed parse as one readable sentence: `limit: must be between 1 and 100`. */
export function firstIssueMessage(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'Invalid request';
  const where = issue.path.map(String).join('.');
  return where ? `${where}: ${issue.message}` : issue.message;
}

/** Parses query, params or body with a schema; a mismatch is a 400 `{ error }`, never a 500. */
export function parseOr400<S extends z.ZodType>(schema: S, input: unknown): z.infer<S> {
  const parsed = schema.safeParse(input);
  if (!parsed.success) throw new HttpError(400, firstIssueMessage(parsed.error));
  return parsed.data;
}
