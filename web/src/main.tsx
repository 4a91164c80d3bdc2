// First: zod must not try eval under the CSP (see the module).
import './lib/zod-without-eval.ts';
import { lazy, StrictMode, Suspense, useState } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { BrowserRouter, useLocation } from 'react-router';
import { Spinner } from './components/spinner.tsx';
import { isNativeShell } from './lib/native-shell.ts';
import { registerServiceWorker } from './lib/service-worker.ts';
import { hasStoredSession } from './lib/stored-session.ts';
import './styles.css';
import './styles/polish.css';

/**
 * The app behind the landing page. Its modules download while the platform's storage and geolocation go in (no
 * module reads storage on import: on native the session lives in Capacitor Preferences); then the first screen's
 * chunk and requests start, before the app's first render (app/first-screen.ts).
 */
const App = lazy(async () => {
  const platformInstalled = import('./lib/platform/index.ts').then(({ installPlatform }) => installPlatform());
  const [app] = await Promise.all([import('./app/app.tsx'), platformInstalled]);
  void app.prefetchFirstScreen(window.location.pathname);
  return { default: app.App };
});

/**
 * The landing page's script: only for hydrating the prerendered page (it is painted already), so the app's own first
 * load (/app) does not carry it.
 */
const LandingShell = lazy(() => import('./app/landing-shell.tsx').then((m) => ({ default: m.LandingShell })));

/**
 * A first visit to `/` on the web gets the landing page alone (a small download: the budget of
 * tests/e2e/bundle-budget.test.ts); any other path, a stored session or the native shell loads the whole app, which
 * then stays (its route table has `/` too).
 */
function Root({ native }: { readonly native: boolean }) {
  const { pathname } = useLocation();
  const [app, setApp] = useState(() => native || pathname !== '/' || hasStoredSession());
  if (!app && pathname !== '/') setApp(true);
  // The boundary matches the prerendered one (landing-prerender.tsx): the painted page stays until its script is in.
  if (!app)
    return (
      <Suspense fallback={null}>
        <LandingShell />
      </Suspense>
    );
  return (
    <Suspense fallback={<Spinner />}>
      <App />
    </Suspense>
  );
}

const container = document.getElementById('root');
if (!container) throw new Error('The page has no #root element');
const native = isNativeShell();
const tree = (
  <StrictMode>
    <BrowserRouter>
      <Root native={native} />
    </BrowserRouter>
  </StrictMode>
);
// index.html carries the landing page prerendered (web/build/prerender-landing.ts): when this first render is that
// page, React takes over the painted markup as it is; anything else replaces it.
if (container.firstElementChild && !native && window.location.pathname === '/' && !hasStoredSession())
  hydrateRoot(container, tree);
else {
  container.replaceChildren();
  createRoot(container).render(tree);
}
// The native shell carries its files itself; on the web the service worker serves the app offline.
if (!native) registerServiceWorker();
