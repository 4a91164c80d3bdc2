import { describe, expect, it } from 'vitest';
import { isNativeShell } from './native-shell.ts';

/** The check that keeps the landing page, the service worker and the app-store prompt out of the native shell. */
describe('isNativeShell: Capacitor’s own test without loading Capacitor', () => {
  it('is true in the Android WebView (its bridge) and in iOS WKWebView (its message handler)', () => {
    expect(isNativeShell({ androidBridge: {} })).toBe(true);
    expect(isNativeShell({ webkit: { messageHandlers: { bridge: {} } } })).toBe(true);
  });

  it('is false in a browser, also Safari with other message handlers', () => {
    expect(isNativeShell({})).toBe(false);
    expect(isNativeShell({ webkit: { messageHandlers: {} } })).toBe(false);
  });

  it('follows a custom platform as Capacitor does', () => {
    expect(isNativeShell({ CapacitorCustomPlatform: { name: 'electron' }, androidBridge: undefined })).toBe(true);
    expect(isNativeShell({ CapacitorCustomPlatform: { name: 'web' }, androidBridge: {} })).toBe(false);
  });
});
