/** What the Capacitor WebView puts on the page before any script runs (its native bridge). */
interface BridgeHints {
  readonly CapacitorCustomPlatform?: { readonly name?: string } | null;
  readonly androidBridge?: unknown;
  readonly webkit?: { readonly messageHandlers?: { readonly bridge?: unknown } };
}

/**
 * Whether the page runs inside the native shell, decided as `Capacitor.isNativePlatform()` decides it
 * (@capacitor/core's getPlatformId) but without loading Capacitor: the landing page and the app-store prompt ask
 * this before the app (and its platform layer) is loaded.
 */
export function isNativeShell(win: BridgeHints = globalThis as BridgeHints): boolean {
  const custom = win.CapacitorCustomPlatform?.name;
  if (custom) return custom !== 'web';
  return Boolean(win.androidBridge) || Boolean(win.webkit?.messageHandlers?.bridge);
}
