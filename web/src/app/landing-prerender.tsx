import { Suspense } from 'react';
import { renderToString } from 'react-dom/server';
import { StaticRouter } from 'react-router';
import { LandingShell } from './landing-shell.tsx';

/**
 * The landing page as HTML, rendered at build time (web/build/prerender-landing.ts) into index.html, so a visitor's
 * first paint is the page itself, before any script has run; main.tsx then hydrates it. It must render exactly what
 * the browser's first render of `/` does for a signed-out visitor (LandingShell, no stored session).
 */
export function renderLanding(): string {
  return renderToString(
    <StaticRouter location="/">
      <Suspense fallback={null}>
        <LandingShell />
      </Suspense>
    </StaticRouter>,
  );
}
