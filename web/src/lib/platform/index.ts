import { browserGeolocation, type Geolocation, installGeolocation } from '../geolocation.ts';
import { adoptLegacyUserData, installStorage, type KeyValueStorage } from '../storage.ts';
import type { HealthStore } from './health.ts';
import type { PushMessaging } from './push.ts';
import { webPushMessaging } from './web-push.ts';

/** What differs in the app's frame between the web and the native shell (§2), so pages ask this, not the platform. */
export interface Shell {
  /** `/` shows the landing page; without it `/` sends the user to /app or /login. */
  readonly hasLanding: boolean;
  /** Where a protected page sends someone signed out: `/` on the web, /login on native. */
  readonly signedOutRoute: '/' | '/login';
  /** Whether sign-in offers the permissions onboarding (location, then notifications). */
  readonly permissionsOnboarding: boolean;
  /** Where a confirmation e-mail's link leads: the web app, or the app's own auth callback deep link. */
  authRedirectUrl(): string;
  /** Where a provider's OAuth return is handed over: the web app's page, or the shell's deep link. */
  readonly connectionReturn: 'web' | 'native';
}

/** The capabilities the web app owns, implemented for one platform. */
export interface Platform {
  /** 'web', 'ios' or 'android': for logs and tests; features use the capabilities below. */
  readonly name: 'web' | 'ios' | 'android';
  readonly geolocation: Geolocation;
  readonly push: PushMessaging;
  readonly shell: Shell;
  /** URLs that open the app (native deep links); the web never gets any. Answers an unsubscribe. */
  onUrlOpen(listener: (url: string) => void): () => void;
  /** The storage to install before the app renders; null keeps the browser's local storage. */
  openStorage(): Promise<KeyValueStorage | null>;
  /** Running workouts from the phone's health store (native only; absent on the web): `health?.importWorkouts()`. */
  readonly health?: HealthStore;
}

export { NATIVE_AUTH_CALLBACK, NATIVE_CONNECTION_RETURN } from './auth-callback-url.ts';

function webPlatform(): Platform {
  return {
    name: 'web',
    geolocation: browserGeolocation(),
    push: webPushMessaging(),
    shell: {
      hasLanding: true,
      signedOutRoute: '/',
      permissionsOnboarding: false,
      authRedirectUrl: () => `${window.location.origin}/app`,
      connectionReturn: 'web',
    },
    onUrlOpen: () => () => {},
    openStorage: () => Promise.resolve(null),
  };
}

/*
 * The web app owns these interfaces and knows no other implementation than its own. The native shell has its own
 * entry (native/src/main.ts), which provides its implementations here before it loads the web app; so the web
 * build carries no native code, and native/ depends on web/, never the reverse (ARCHITECTURE.md).
 */
let provided: Platform | null = null;
let current: Platform | null = null;

/** Called by a shell's entry before the app loads: the platform to use instead of the browser's. */
export function providePlatform(platform: Platform): void {
  if (current && current !== platform)
    throw new Error('The platform was chosen already: provide it before the app loads');
  provided = platform;
}

/** The platform the app runs on: the one a shell provided, else the web's. */
export function platform(): Platform {
  current ??= provided ?? webPlatform();
  return current;
}

/**
 * Installs the platform's storage and geolocation behind the web app's interfaces. The entries (main.tsx,
 * app-main.tsx) await it before the app renders, so the session is read from the right storage (no module reads
 * storage on import; the auth client is made on first use).
 */
export async function installPlatform(target: Platform = platform()): Promise<void> {
  try {
    const storage = await target.openStorage();
    if (storage) installStorage(storage);
  } catch (error) {
    // Better a session that has to sign in again than an app that never starts.
    console.error('Could not open the device storage; using the WebView storage', error);
  }
  // What an earlier build kept for the whole device goes to the signed-in user, or away (lib/storage.ts).
  adoptLegacyUserData();
  installGeolocation(target.geolocation);
}
