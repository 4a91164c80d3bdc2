import type { Config } from './config.ts';

/**
 * Browser origins allowed to call the API: the web app, and the Capacitor shell's own origins (the native app loads
 * the same web build from `capacitor://localhost` on iOS and `https://localhost` on Android).
 */
export function allowedOrigins(config: Pick<Config, 'APP_URL'>): string[] {
  return [new URL(config.APP_URL).origin, 'capacitor://localhost', 'https://localhost'];
}
