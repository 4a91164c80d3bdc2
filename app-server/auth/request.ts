import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context } from 'hono';
import { z } from 'zod';
import { authErrors } from './auth-error.ts';
import { passwordWeakness } from './password-policy.ts';

/** The JSON body as an object; bad JSON → 400 bad_json, a non-object → 400 validation_failed. */
export async function readBody(c: Context): Promise<Record<string, unknown>> {
  const text = await c.req.text();
  if (text.trim() === '') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw authErrors.badJson();
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw authErrors.validation('Request body must be a JSON object');
  }
  return parsed as Record<string, unknown>;
}

/** Parses with a zod schema; the first problem becomes a 400 validation_failed naming the field. */
export function parseWith<T>(schema: z.ZodType<T>, value: unknown): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const field = issue?.path.join('.') ?? '';
  throw authErrors.validation(
    field ? `${field}: ${issue?.message ?? 'invalid'}` : (issue?.message ?? 'Invalid request'),
  );
}

const EMAIL =
  /^[^\s@"<>()[\]\\,;:]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/;

/** The e-mail trimmed and lowercased, or 400 email_address_invalid. */
export function normaliseEmail(raw: unknown): string {
  if (typeof raw !== 'string') throw authErrors.invalidEmail();
  const email = raw.trim().toLowerCase();
  if (email.length > 254 || !EMAIL.test(email)) throw authErrors.invalidEmail();
  return email;
}

/**
 * A new password meeting the minimum strength of password-policy.ts (else 422 weak_password with GoTrue's reasons,
 * as the client expects); at most 1024 characters to bound hashing.
 */
export function checkPassword(raw: unknown): string {
  if (typeof raw !== 'string') throw authErrors.validation('password: Password is required');
  const weakness = passwordWeakness(raw);
  if (weakness) throw authErrors.weakPassword(weakness.reason, weakness.message);
  if (raw.length > 1024) throw authErrors.validation('password: Password must be at most 1024 characters');
  return raw;
}

/** Optional string fields of a body, refusing other types. */
export const optionalString = z.string().max(2048).optional().nullable();

/** The caller's address: X-Forwarded-For's first hop behind a trusted proxy, else the socket's peer. */
export function clientIp(c: Context, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = c.req.header('x-forwarded-for')?.split(',')[0]?.trim();
    if (forwarded) return forwarded;
  }
  try {
    return getConnInfo(c).remote.address ?? 'unknown';
  } catch {
    // app.request() in tests has no socket.
    return 'unknown';
  }
}
