/**
 * The app's one service worker at scope `/`: the built `sw.js` (web/src/sw.ts) serves the app shell offline and
 * imports the push handlers of public/push-sw.js. In development Vite builds no worker, so push registers that file
 * alone there.
 */
export const SERVICE_WORKER_URL = import.meta.env.DEV ? '/push-sw.js' : '/sw.js';

/**
 * Registers the worker once the page has loaded and `firstScreen` has settled (the first screen's requests), out of
 * their way: a first install downloads the whole build. Where there is none (an old browser, a private window that
 * refuses it) the app works as before, online only.
 */
export function registerServiceWorker(firstScreen: Promise<unknown> = Promise.resolve()): void {
  if (import.meta.env.DEV || typeof navigator === 'undefined' || !('serviceWorker' in navigator)) return;
  const register = () => {
    navigator.serviceWorker.register(SERVICE_WORKER_URL).catch((error: unknown) => {
      console.warn('The offline service worker could not be registered', error);
    });
  };
  const loaded =
    document.readyState === 'complete'
      ? Promise.resolve()
      : new Promise<void>((done) => window.addEventListener('load', () => done(), { once: true }));
  void Promise.allSettled([loaded, firstScreen]).then(register);
}
