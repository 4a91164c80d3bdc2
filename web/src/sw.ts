import { clientsClaim } from 'workbox-core';
import {
  cleanupOutdatedCaches,
  createHandlerBoundToURL,
  type PrecacheEntry,
  precacheAndRoute,
} from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';

/**
 * The app's one service worker (scope `/`, registered by lib/service-worker.ts), built by vite-plugin-pwa
 * (injectManifest, a classic script) into dist/sw.js:
 * - precaches the build (the page, every hashed script and style, icons, manifest), so the app opens with no network:
 *   a run waiting to sync (features/runs/offline) is shown and kept after a reload in a park;
 * - answers every navigation with the cached page, `/` with the prerendered landing page, any other route with
 *   app.html (the app routes itself; the API, on another origin or under /api, is never cached);
 * - shows Web Push messages and routes taps: public/push-sw.js, imported here so one worker does both.
 * A new version installs beside the old one and takes over when every tab of the app is closed (no skipWaiting): a
 * page never finds the scripts it was built with gone mid-run.
 */
declare const self: {
  readonly __WB_MANIFEST: (string | PrecacheEntry)[];
  importScripts(...urls: string[]): void;
};

self.importScripts('/push-sw.js');

precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();
// `/` is the prerendered landing page (index.html); every other route is the app's page (app.html).
registerRoute(
  ({ request, url }) => request.mode === 'navigate' && url.pathname === '/',
  createHandlerBoundToURL('/index.html'),
);
// Not /api/…: that is the API on the app's own origin (npm start), whose answers are never the app's page.
registerRoute(new NavigationRoute(createHandlerBoundToURL('/app.html'), { denylist: [/^\/api(\/|$)/] }));
// The first install controls the page that registered it, so that page already works offline.
clientsClaim();
