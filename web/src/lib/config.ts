/**
 * The API's path on the web app's own origin: the server that serves the built web app (`npm start`,
 * app-server/web-with-api.ts) and the dev server (vite.config.ts) answer `/api/…` with the API.
 */
export const SAME_ORIGIN_API_PATH = '/api';

/**
 * The product API's address (§7: from configuration). VITE_API_URL when the build was given one (the native shell,
 * a web app served apart from its API); otherwise the web app's own origin under /api, so the built app follows the
 * API wherever `PORT` puts it, with nothing baked in. The native build without one keeps localhost:3001 (its own
 * origin, capacitor://localhost, serves no API).
 */
export const API_URL: string =
  (import.meta.env.VITE_API_URL as string | undefined) ||
  (import.meta.env.MODE !== 'native' && globalThis.location?.origin
    ? `${globalThis.location.origin}${SAME_ORIGIN_API_PATH}`
    : 'http://localhost:3001');
