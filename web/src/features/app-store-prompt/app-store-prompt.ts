import { STORAGE_KEYS, storage } from '../../lib/storage.ts';

/**
 * Where the native apps are published (§2: a prompt sends web users on mobile to the app stores). The Android id is
 * the Capacitor appId (native/capacitor.config.json); the App Store page is addressed by name until the listing's
 * numeric id exists.
 */
export const APP_STORE_LINKS = {
  ios: 'https://apps.apple.com/app/stridestake',
  android: 'https://play.google.com/store/apps/details?id=app.stridestake',
} as const;

/** What the browser says about the device. */
export interface DeviceHints {
  readonly userAgent: string;
  /** `navigator.userAgentData.mobile` where the browser has it (Chromium), else undefined. */
  readonly mobileHint?: boolean;
  /** `navigator.maxTouchPoints`: iPadOS Safari reports a desktop Mac user agent, but a touch screen. */
  readonly maxTouchPoints: number;
}

/** Whether the web app is open on a phone or tablet, where the native app would serve the user better. */
export function isMobileDevice({ userAgent, mobileHint, maxTouchPoints }: DeviceHints): boolean {
  if (mobileHint === true) return true;
  if (/Android|iPhone|iPad|iPod|Mobile/i.test(userAgent)) return true;
  return /Macintosh/.test(userAgent) && maxTouchPoints > 1;
}

/** Whether the user closed the prompt on this device (remembered, §9 local storage). */
export const isAppStorePromptDismissed = (): boolean =>
  storage.getItem(STORAGE_KEYS.appStorePromptDismissed) === 'true';

/** Remembers that the prompt was closed, so it stays closed on later visits. */
export const dismissAppStorePrompt = (): void => storage.setItem(STORAGE_KEYS.appStorePromptDismissed, 'true');
