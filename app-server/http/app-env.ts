import type { RequestIdVariables } from 'hono/request-id';
import type { SavedWrite } from './read-your-writes.ts';
import type { RequestWrites } from './request-writes.ts';
import type { RequestLimiter } from './middleware/rate-limit.ts';

/** Per-request values set by middleware: the request id, and the signed-in user once the auth guard ran. */
export type AppEnv = {
  Variables: RequestIdVariables & {
    /** Set by the auth guard on protected routes. */
    userId: string;
    /** Authenticator assurance level of the session (aal1 or aal2). */
    aal: 'aal1' | 'aal2';
    /** The session the access token belongs to. */
    sessionId: string;
    /** Set once a command route's events are saved: from then on the request answers success (read-your-writes.ts). */
    savedWrite: SavedWrite | undefined;
    /** What the request's commands appended (request-writes.ts): the read models its answer waits for follow. */
    writes: RequestWrites | undefined;
    /** The JSON body as the unstorable-text check parsed it (storable-input.ts), so routes do not parse it again. */
    jsonBody: { readonly value: unknown } | undefined;
    /** The request limits (middleware/rate-limit.ts), for routes that count something of their own. */
    limits: RequestLimiter;
  };
};
