import type { RequestIdVariables } from 'hono/request-id';

/** What the auth service's routes read from the request context: the request id (for logs and event correlation). */
export type AuthEnv = { Variables: RequestIdVariables };
