import { beforeEach, describe, expect, it } from 'vitest';
import { installStorage, STORAGE_KEYS } from '../../lib/storage.ts';
import { dismissAppStorePrompt, isAppStorePromptDismissed, isMobileDevice } from './app-store-prompt.ts';

const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Mobile/15E148 Safari/604.1';
const ANDROID =
  'Mozilla/5.0 (Linux; Android 15; Pixel 9) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0 Mobile Safari/537.36';
const MAC =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Safari/605.1.15';
const LINUX = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0 Safari/537.36';

describe('app store prompt', () => {
  let map: Map<string, string>;
  beforeEach(() => {
    map = new Map();
    installStorage({
      getItem: (k) => map.get(k) ?? null,
      setItem: (k, v) => void map.set(k, v),
      removeItem: (k) => void map.delete(k),
    });
  });

  it('counts phones and tablets as mobile, including an iPad that reports a Mac, and desktops not', () => {
    expect(isMobileDevice({ userAgent: IPHONE, maxTouchPoints: 5 })).toBe(true);
    expect(isMobileDevice({ userAgent: ANDROID, maxTouchPoints: 5 })).toBe(true);
    expect(isMobileDevice({ userAgent: MAC, maxTouchPoints: 5 })).toBe(true);
    expect(isMobileDevice({ userAgent: LINUX, mobileHint: true, maxTouchPoints: 0 })).toBe(true);
    expect(isMobileDevice({ userAgent: MAC, maxTouchPoints: 0 })).toBe(false);
    expect(isMobileDevice({ userAgent: LINUX, mobileHint: false, maxTouchPoints: 0 })).toBe(false);
  });

  it('stays dismissed once closed, under its own storage key', () => {
    expect(isAppStorePromptDismissed()).toBe(false);
    dismissAppStorePrompt();
    expect(isAppStorePromptDismissed()).toBe(true);
    expect(map.get(STORAGE_KEYS.appStorePromptDismissed)).toBe('true');
  });
});
