import { useEffect, useState } from 'react';
import { AppStoreBanner } from '../features/app-store-prompt/components/app-store-banner.tsx';
import { LandingPage } from '../features/landing/components/landing-page.tsx';

/**
 * `/` for a visitor on the web before the app is loaded: the landing page and the app-store prompt, and nothing
 * else — no auth client, query cache, API client, demo data or validation schemas (main.tsx loads the app the
 * moment the visitor goes anywhere else). The same markup is prerendered into index.html at build time
 * (landing-prerender.tsx), so the prompt, which depends on the device, joins after the first render.
 */
export function LandingShell() {
  const [mounted, setMounted] = useState(false);
  useEffect(() => setMounted(true), []);
  return (
    <>
      {mounted ? <AppStoreBanner /> : null}
      <LandingPage />
    </>
  );
}
