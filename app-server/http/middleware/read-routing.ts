import type { MiddlewareHandler } from 'hono';
import { formatWalPosition, parseWalPosition } from '../../../domain/shared/wal-position.ts';
import type { ReadReplica } from '../../db/read-replica.ts';
import { readsOnReplica } from '../../db/read-replica.ts';
import type { AppEnv } from '../app-env.ts';
import { HttpError } from '../errors.ts';
import { matchedRoute, policyIndex } from './rate-limit.ts';

/** A write's answer: the primary's WAL position after it. A client sends it back on its next reads. */
export const READ_POSITION_HEADER = 'x-read-position';
/** A read's request: "serve me from where this position is visible". */
export const READ_AFTER_HEADER = 'x-read-after';
/** Where a read was served ('replica' or 'primary'), for operators and tests. */
export const READ_FROM_HEADER = 'x-read-from';

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Sends the API's pure reads to the streaming replica (READ_DATABASE_URL), app-server/db/read-replica.ts. A pure read
 * is a GET whose declared limit class is `read` or `public` (route-limits.ts): the same declaration every route must
 * make, so a new read route is routed without anyone remembering to. Everything else (writes, streams, creations by
 * GET such as an OAuth start, the auth service) stays on the primary.
 */
export function readRouting(replica: ReadReplica): MiddlewareHandler<AppEnv> {
  const policyOf = policyIndex();
  return async (c, next) => {
    const method = c.req.method;
    if (WRITES.has(method)) {
      await next();
      if (c.res.status < 400) c.header(READ_POSITION_HEADER, formatWalPosition(await replica.primaryPosition()));
      return;
    }
    const route = matchedRoute(c);
    const policy = route && method === 'GET' ? policyOf(route.method, route.path) : null;
    if (policy?.class !== 'read' && policy?.class !== 'public') return next();
    const after = c.req.header(READ_AFTER_HEADER);
    let onReplica = true;
    if (after !== undefined) {
      const position = parseWalPosition(after);
      if (position === null) throw new HttpError(400, `Invalid ${READ_AFTER_HEADER} header`);
      // A replica that cannot say how far it is (unreachable) serves nothing that must be fresh.
      onReplica = await replica.hasReplayed(position).catch(() => false);
    }
    c.header(READ_FROM_HEADER, onReplica ? 'replica' : 'primary');
    return onReplica ? readsOnReplica(() => next()) : next();
  };
}
