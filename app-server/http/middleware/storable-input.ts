import type { Context, MiddlewareHandler } from 'hono';
import {
  findStorageProblem,
  isStorableText,
  MAX_JSON_DEPTH,
  storageProblemMessage,
  TOO_DEEPLY_NESTED,
  UNSTORABLE_TEXT,
} from '../../../domain/shared/storable-text.ts';
import { AuthApiError, respondAuthError } from '../../auth/auth-error.ts';
import type { AppEnv } from '../app-env.ts';
import { HttpError } from '../errors.ts';

/**
 * Refuses, before any route runs, a request carrying text PostgreSQL cannot store (NUL, an unpaired UTF-16
 * surrogate) anywhere in its path, query string or JSON body, or a body nested deeper than MAX_JSON_DEPTH: 400
 * naming the field, in the product's `{ error }` shape or, under /auth/v1, GoTrue's `validation_failed`. Such text
 * would otherwise reach SQL (a 500) or an event that no projection can apply (every later write stuck), whichever
 * route, schema or future route it came through; the zod refinement `storableString` says the same for forms.
 * A body that is not JSON is left to the route, which answers its own 400.
 */
export function storableInput(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const problem = (plainAscii(c.req.url) ? null : (pathProblem(c) ?? queryProblem(c))) ?? (await bodyProblem(c));
    if (problem !== null) {
      if (c.req.path.startsWith('/auth/v1'))
        return respondAuthError(c, new AuthApiError(400, 'validation_failed', problem));
      throw new HttpError(400, problem);
    }
    await next();
  };
}

/**
 * True when the URL holds only printable ASCII and no percent escape: then no path segment or query value can decode
 * to a NUL or a lone surrogate, and the checks below (which parse the URL) have nothing to find. Most requests.
 */
function plainAscii(url: string): boolean {
  for (let i = 0; i < url.length; i++) {
    const code = url.charCodeAt(i);
    if (code < 0x20 || code > 0x7e || code === 0x25 /* % */) return false;
  }
  return true;
}

/** A path segment, percent-decoded when it decodes (`%00` is NUL; a malformed escape stays as typed). */
function decodedSegments(rawPath: string): string[] {
  return rawPath.split('/').map((segment) => {
    try {
      return decodeURIComponent(segment);
    } catch {
      return segment;
    }
  });
}

function pathProblem(c: Context): string | null {
  const rawPath = new URL(c.req.url).pathname;
  return decodedSegments(rawPath).every(isStorableText) ? null : `path: ${UNSTORABLE_TEXT}`;
}

function queryProblem(c: Context): string | null {
  for (const [name, values] of Object.entries(c.req.queries())) {
    const where = isStorableText(name) ? name : 'query';
    if (!isStorableText(name) || !values.every(isStorableText)) return `${where}: ${UNSTORABLE_TEXT}`;
  }
  return null;
}

async function bodyProblem(c: Context<AppEnv>): Promise<string | null> {
  if (c.req.method === 'GET' || c.req.method === 'HEAD' || c.req.method === 'OPTIONS') return null;
  // Cached by Hono: the route reads the same text again.
  const text = await c.req.text();
  if (text.trim() === '') return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    // V8 gives up on very deep nesting with a RangeError; anything else is not JSON, for the route to answer.
    if (error instanceof RangeError) return `The request ${TOO_DEEPLY_NESTED}`;
    return null;
  }
  const found = findStorageProblem(parsed, MAX_JSON_DEPTH);
  if (found) return storageProblemMessage(found);
  c.set('jsonBody', { value: parsed });
  return null;
}
