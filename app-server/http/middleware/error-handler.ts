import type { Context, ErrorHandler, NotFoundHandler } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { Logger } from 'pino';
import { WrongExpectedVersionError } from '../../../domain/shared/event-store.ts';
import { DomainRefusal } from '../../commands/domain-refusal.ts';
import { isTransientDatabaseError } from '../../../projections/transient-error.ts';
import { RETRY_AFTER_SECONDS, SERVICE_UNAVAILABLE } from '../../db/unavailable.ts';
import { HttpError, httpErrorFromDomain } from '../errors.ts';
import { savedWriteAnswer } from '../read-your-writes.ts';

/**
 * Every failure answers JSON `{ "error": "<message>" }` with the right status. Unexpected errors are logged with
 * the request id and answered 500 without internals; known client mistakes (bad JSON, a lost write race) are not 500s.
 * Once a route's write is saved, any failure (its read models late, the database gone) answers that write's success;
 * before that, an unreachable database answers 503 with Retry-After (the client may retry; nothing was saved).
 */
export function errorHandler(options: { logger: Logger; report?: (error: unknown, c: Context) => void }): ErrorHandler {
  return (error, c) => {
    // A write that was saved never answers an error: the client would retry it into a duplicate.
    const saved = c.get('savedWrite');
    if (saved) {
      options.logger.warn(
        { err: error, requestId: c.get('requestId') },
        'write saved; answered without its read models',
      );
      return savedWriteAnswer(c, saved);
    }
    if (error instanceof HttpError) return c.json({ error: error.message, ...error.body }, error.status);
    if (error instanceof DomainRefusal) {
      const http = httpErrorFromDomain(error.reason);
      return c.json({ error: http.message, ...http.body }, http.status);
    }
    if (error instanceof WrongExpectedVersionError) {
      return c.json({ error: 'This item was changed by another request. Please try again.' }, 409);
    }
    if (error instanceof SyntaxError && /JSON/i.test(error.message)) {
      return c.json({ error: 'Request body must be valid JSON' }, 400);
    }
    if (error instanceof HTTPException) {
      const status = error.status;
      return c.json({ error: error.message || defaultMessage(status) }, status);
    }
    if (isTransientDatabaseError(error)) {
      options.logger.warn({ err: error, requestId: c.get('requestId') }, 'database unavailable');
      c.header('Retry-After', String(RETRY_AFTER_SECONDS));
      return c.json({ error: SERVICE_UNAVAILABLE }, 503);
    }
    options.logger.error({ err: error, requestId: c.get('requestId') }, 'unhandled error');
    options.report?.(error, c);
    return c.json({ error: 'Internal server error' }, 500);
  };
}

/** Unknown routes answer 404 JSON rather than Hono's plain-text default. */
export const notFoundHandler: NotFoundHandler = (c) => c.json({ error: 'Not found' }, 404);

function defaultMessage(status: number): string {
  if (status === 401) return 'Unauthorized';
  if (status === 413) return 'Request body too large';
  return 'Request failed';
}
