import { AppProviders } from './providers.tsx';
import { AppRouter } from './router.tsx';

export { prefetchFirstScreen } from './first-screen.ts';

/** The whole web app: providers around the router. */
export function App() {
  return (
    <AppProviders>
      <AppRouter />
    </AppProviders>
  );
}
