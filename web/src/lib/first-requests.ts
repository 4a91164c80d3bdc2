import { API_URL } from './config.ts';
import { isDemoMode } from './demo-flag.ts';
import { sessionReadyToUse } from './ready-session.ts';
import { STORAGE_KEYS, storage } from './storage.ts';

/**
 * The API reads a screen's first paint waits for, by the path the page opens on: the ones app/first-screen.ts
 * prefetches into the query cache (first-screen.test.ts keeps the two in step). Few: on a slow phone each request
 * costs the page's main thread ~20 ms, and this script holds up the page while it runs.
 */
export const FIRST_REQUESTS: Readonly<Record<string, readonly string[]>> = {
  '/app': ['/auth/me', '/goals/current'],
};

/** Statuses whose answer has no body (a Response made with one would throw). */
const NULL_BODY_STATUSES: ReadonlySet<number> = new Set([101, 103, 204, 205, 304]);

/** Answers this old are no longer taken: the query cache would not count them fresh either (lib/query-client.ts). */
const FRESH_FOR_MS = 30_000;

interface StartedRequests {
  readonly token: string;
  readonly startedAt: number;
  readonly responses: Map<string, Promise<Response>>;
}

declare global {
  interface Window {
    /** What app.html's inline script started (startFirstRequests), for the app's API client to take. */
    stridestakeFirstRequests?: StartedRequests;
  }
}

/**
 * Starts the first screen's API reads from the page itself: app.html runs this as an inline script in its head
 * (src/first-requests-inline.ts, built in by build/prerender-landing.ts), so they travel while the app's scripts
 * download and start, instead of after. Only for a signed-in runner whose stored session is ready to use (the auth
 * client would send the same token) and not in demo mode; the requests are the ones `api()` would send.
 */
export function startFirstRequests(): void {
  const paths = FIRST_REQUESTS[window.location.pathname];
  if (!paths || isDemoMode()) return;
  const session = sessionReadyToUse(storage.getItem(STORAGE_KEYS.session), window.location, Date.now());
  if (!session) return;
  const headers = { accept: 'application/json', authorization: `Bearer ${session.access_token}` };
  const responses = new Map<string, Promise<Response>>();
  for (const path of paths) {
    // The body is read here too, while the app's scripts load, so the app finds the answer whole.
    const response = fetch(`${API_URL}${path}`, { headers }).then(
      async (answer) => new Response(NULL_BODY_STATUSES.has(answer.status) ? null : await answer.text(), answer),
    );
    // A failure is the taker's to handle (api() reports it as its own); one nobody takes is no error.
    response.catch(() => {});
    responses.set(path, response);
  }
  window.stridestakeFirstRequests = { token: session.access_token, startedAt: Date.now(), responses };
}

/**
 * The answer to `GET path` the page started with this token, handed out once; undefined when there is none (another
 * path, another token: a session refreshed or switched since), or it is too old to be worth using.
 */
export function takeFirstResponse(path: string, token: string): Promise<Response> | undefined {
  const started = window.stridestakeFirstRequests;
  if (!started || started.token !== token || Date.now() - started.startedAt > FRESH_FOR_MS) return undefined;
  const response = started.responses.get(path);
  started.responses.delete(path);
  return response;
}
