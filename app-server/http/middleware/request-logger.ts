import type { MiddlewareHandler } from 'hono';
import type { Logger } from 'pino';

/** Logs one line per request with its id, status and duration (health checks at debug level to keep logs quiet). */
export function requestLogger(logger: Logger): MiddlewareHandler {
  return async (c, next) => {
    const started = performance.now();
    await next();
    const line = {
      requestId: c.get('requestId'),
      method: c.req.method,
      path: c.req.path,
      status: c.res.status,
      ms: Math.round(performance.now() - started),
    };
    if (c.req.path === '/health') logger.debug(line, 'request');
    else logger.info(line, 'request');
  };
}
