import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { installPlatform } from './lib/platform/index.ts';
import './styles.css';

/**
 * The platform's storage and geolocation go in before the app is imported: the auth client reads the stored
 * session as soon as its module loads, and on native that session lives in Capacitor Preferences.
 */
async function start(): Promise<void> {
  const root = document.getElementById('root');
  if (!root) throw new Error('The page has no #root element');
  await installPlatform();
  const { App } = await import('./app/app.tsx');
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}

void start();
