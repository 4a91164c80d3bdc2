/**
 * Where the web app finds the API on its own origin: `npm start` answers `<web origin>/api/…` with the API itself
 * (the path after the prefix, the same Hono app in the same process), so the web app served there calls
 * `${location.origin}/api` and needs no API address baked in at build time: `PORT` alone moves the API, and the
 * web app follows. web/src/lib/config.ts spells the same prefix (web/ imports no app-server code).
 */
export const SAME_ORIGIN_API_PREFIX = '/api';

type Fetch = (request: Request, env?: unknown) => Response | Promise<Response>;

/** Whether `pathname` is the API's, on the web app's origin (`/api` or below, never `/apis`). */
export function isSameOriginApiPath(pathname: string): boolean {
  return pathname === SAME_ORIGIN_API_PREFIX || pathname.startsWith(`${SAME_ORIGIN_API_PREFIX}/`);
}

/**
 * The web app's server with the API under SAME_ORIGIN_API_PREFIX: an `/api/…` request goes to `api` with the prefix
 * taken off (its routes, limits, headers and CORS are the API's own; `env` carries the client's connection, so rate
 * limits see the same address), every other request to `web`.
 */
export function withSameOriginApi(web: Fetch, api: Fetch): Fetch {
  return (request, env) => {
    const url = new URL(request.url);
    if (!isSameOriginApiPath(url.pathname)) return web(request, env);
    url.pathname = url.pathname.slice(SAME_ORIGIN_API_PREFIX.length) || '/';
    const hasBody = request.method !== 'GET' && request.method !== 'HEAD';
    const forwarded = new Request(url, {
      method: request.method,
      headers: request.headers,
      body: hasBody ? request.body : null,
      signal: request.signal,
      redirect: 'manual',
      // A streamed body (Node's fetch wants this said); the API reads it once, as it would on its own port.
      ...(hasBody ? { duplex: 'half' } : {}),
    } as RequestInit);
    return api(forwarded, env);
  };
}
