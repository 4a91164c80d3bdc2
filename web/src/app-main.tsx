// First: zod must not try eval under the CSP (see the module).
import './lib/zod-without-eval.ts';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { App, prefetchFirstScreen } from './app/app.tsx';
// The dashboard (/app) is where the app opens: the manifest's start_url, after every sign-in. Its screen comes with
// the page (modulepreloaded from app.html), not a round trip after the router has started.
import './app/routes/dashboard-route.tsx';
import { installPlatform } from './lib/platform/index.ts';
import { registerServiceWorker } from './lib/service-worker.ts';
import './styles.css';
import './styles/polish.css';

/** How long the first paint waits for the first screen's answers at most (ms). */
const FIRST_PAINT_WAIT_MS = 1_000;

/**
 * The entry of app.html, the web page of every route but `/` (build/prerender-landing.ts): the whole app, loaded
 * with the page, where main.tsx (index.html, the landing page) loads it only when asked. The native shell keeps
 * main.tsx, which installs its platform first (native/src/main.ts).
 */
async function start(): Promise<void> {
  await installPlatform();
  const firstScreen = prefetchFirstScreen(window.location.pathname);
  // One first paint with the runner's name and goal, rather than skeletons replaced a moment later: their answers are
  // usually in by now (app.html asked for them as it loaded). A slow network gets the skeletons after a short wait.
  await Promise.race([firstScreen, new Promise((done) => setTimeout(done, FIRST_PAINT_WAIT_MS))]);
  const container = document.getElementById('root');
  if (!container) throw new Error('The page has no #root element');
  createRoot(container).render(
    <StrictMode>
      <BrowserRouter>
        <App />
      </BrowserRouter>
    </StrictMode>,
  );
  // The service worker serves the app offline; it downloads the whole build, so not beside the first screen's requests.
  registerServiceWorker(firstScreen);
}

void start();
