import { Capacitor } from '@capacitor/core';
import { capacitorDeepLinks } from '../../../../native/src/deep-links.ts';
import { capacitorGeolocation } from '../../../../native/src/geolocation.ts';
import { capacitorPush } from '../../../../native/src/push.ts';
import { preferencesStorage } from '../../../../native/src/storage.ts';
import { browserGeolocation, type Geolocation, installGeolocation } from '../geolocation.ts';
import { installStorage, type KeyValueStorage } from '../storage.ts';
import { NATIVE_AUTH_CALLBACK } from './auth-callback-url.ts';
import { type PushMessaging, webPush } from './push.ts';

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
}

export { NATIVE_AUTH_CALLBACK } from './auth-callback-url.ts';

/** What the factory needs to know about where it runs (Capacitor's answers, or a test's). */
export interface PlatformEnv {
  readonly isNative: boolean;
  readonly platform: string;
}

function webPlatform(): Platform {
  return {
    name: 'web',
    geolocation: browserGeolocation(),
    push: webPush(),
    shell: {
      hasLanding: true,
      signedOutRoute: '/',
      permissionsOnboarding: false,
      authRedirectUrl: () => `${window.location.origin}/app`,
    },
    onUrlOpen: () => () => {},
    openStorage: () => Promise.resolve(null),
  };
}

function nativePlatform(name: 'ios' | 'android'): Platform {
  return {
    name,
    geolocation: capacitorGeolocation(),
    push: capacitorPush(name),
    shell: {
      hasLanding: false,
      signedOutRoute: '/login',
      permissionsOnboarding: true,
      authRedirectUrl: () => NATIVE_AUTH_CALLBACK,
    },
    onUrlOpen: capacitorDeepLinks(),
    openStorage: () => preferencesStorage(),
  };
}

/** The factory: native implementations inside the Capacitor shell, web ones anywhere else. */
export function createPlatform(env: PlatformEnv): Platform {
  if (env.isNative && (env.platform === 'ios' || env.platform === 'android')) return nativePlatform(env.platform);
  return webPlatform();
}

let current: Platform | null = null;

/** The platform the app runs on, chosen once by `Capacitor.isNativePlatform()`. */
export function platform(): Platform {
  current ??= createPlatform({ isNative: Capacitor.isNativePlatform(), platform: Capacitor.getPlatform() });
  return current;
}

/**
 * Installs the platform's storage and geolocation behind the web app's interfaces. main.tsx awaits it before
 * importing the app, so the auth client reads the stored session from the right storage.
 */
export async function installPlatform(target: Platform = platform()): Promise<void> {
  try {
    const storage = await target.openStorage();
    if (storage) installStorage(storage);
  } catch (error) {
    // Better a session that has to sign in again than an app that never starts.
    console.error('Could not open the device storage; using the WebView storage', error);
  }
  installGeolocation(target.geolocation);
}
