import { useEffect } from 'react';
import { startErrorReporting } from '../lib/error-reporting/index.ts';
import { AppProviders } from './providers.tsx';
import { AppRouter } from './router.tsx';

export { prefetchFirstScreen } from './first-screen.ts';

/** The whole web app: providers around the router. Error reporting starts with it (the landing page has none). */
export function App() {
  useEffect(() => startErrorReporting(), []);
  return (
    <AppProviders>
      <AppRouter />
    </AppProviders>
  );
}
