import type { Platform } from '../../web/src/lib/platform/index.ts';
import { NATIVE_AUTH_CALLBACK } from '../../web/src/lib/platform/auth-callback-url.ts';
import { backgroundTracking } from './background-tracking.ts';
import { capacitorDeepLinks } from './deep-links.ts';
import { healthImport } from './health-import.ts';
import { capacitorPush } from './push.ts';
import { preferencesStorage } from './storage.ts';

/** What the factory needs to know about where it runs (Capacitor's answers, or a test's). */
export interface PlatformEnv {
  readonly isNative: boolean;
  readonly platform: string;
}

/** The shell's implementations of the web app's capabilities on iOS or Android (§2: no landing, /login, onboarding). */
export function nativePlatform(name: 'ios' | 'android'): Platform {
  return {
    name,
    // GPS that goes on in the background during a run (Android's foreground service, iOS background updates).
    geolocation: backgroundTracking({ platform: name }),
    push: capacitorPush(name),
    shell: {
      hasLanding: false,
      signedOutRoute: '/login',
      permissionsOnboarding: true,
      authRedirectUrl: () => NATIVE_AUTH_CALLBACK,
      connectionReturn: 'native',
    },
    onUrlOpen: capacitorDeepLinks(),
    openStorage: () => preferencesStorage(),
    // Health Connect (Android) / Apple Health (iOS) running workouts, imported on the runner's request.
    health: healthImport({ platform: name }),
  };
}

/** The native platform when Capacitor runs natively on iOS or Android; null anywhere else (the web's stays). */
export function nativePlatformFor(env: PlatformEnv): Platform | null {
  if (env.isNative && (env.platform === 'ios' || env.platform === 'android')) return nativePlatform(env.platform);
  return null;
}
