import type { HealthStore } from '../../lib/platform/health.ts';

/**
 * A card of the screen; `unavailable` is what its disabled button says where the service cannot be used; `health` is
 * the phone's own health store the card imports from (the native app on its own platform).
 */
export interface ServiceEntry {
  readonly provider: string;
  readonly name: string;
  readonly text: string;
  readonly available: boolean;
  readonly unavailable?: string;
  readonly health?: HealthStore;
}

/**
 * §1, §2, as things stand in 2026: Strava is active; Garmin looks connectable and its Connect answers the API's
 * not-implemented message, so its card points to what works today, importing the FIT files its watches write. Google
 * Fit is gone (its APIs shut down in 2026; Health Connect replaced it on Android): Health Connect and Apple Health
 * are read on the phone by the native app, so the web says where they are available.
 */
export function servicesOn(
  device: 'web' | 'ios' | 'android',
  health: HealthStore | undefined,
): readonly ServiceEntry[] {
  const inApp = (os: 'ios' | 'android') =>
    device === os
      ? 'Not available on this phone'
      : `Available in the StrideStake app for ${os === 'ios' ? 'iPhone' : 'Android'}`;
  // The phone's own store, when the shell offers it: the card imports its running workouts.
  const store = (source: HealthStore['source']) => (health?.source === source ? { available: true, health } : {});
  return [
    { provider: 'strava', name: 'Strava', text: 'Sync your runs automatically.', available: true },
    {
      provider: 'garmin',
      name: 'Garmin',
      text: 'Syncing with Garmin Connect is not built yet.',
      available: true,
    },
    {
      provider: 'health-connect',
      name: 'Health Connect',
      text: 'Bring in runs, with their routes, from Health Connect on Android.',
      available: false,
      unavailable: inApp('android'),
      ...store('health_connect'),
    },
    {
      provider: 'apple-health',
      name: 'Apple Health',
      text: 'Bring in workouts, with their routes, from the Health app on iPhone.',
      available: false,
      unavailable: inApp('ios'),
      ...store('apple_health'),
    },
  ];
}
