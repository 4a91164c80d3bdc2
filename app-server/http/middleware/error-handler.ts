import type { Context, ErrorHandler, NotFoundHandler } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { Logger } from 'pino';
import { WrongExpectedVersionError } from '../../../domain/shared/event-store.ts';
import { DomainRefusal } from '../../commands/domain-refusal.ts';
import { HttpError, httpErrorFromDomain } from '../errors.ts';

/**
 * Every failure answers JSON `{ "error": "<message>" }` with the right status. Unexpected errors are logged with
 * the request id and answered 500 without internals; known client mistakes (bad JSON, a lost write race) are not 500s.
 */
export function errorHandler(options: { logger: Logger; report?: (error: unknown, c: Context) => void }): ErrorHandler {
  return (error, c) => {
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
