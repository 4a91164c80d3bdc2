import { useState } from 'react';
import { isNativeShell } from '../../../lib/native-shell.ts';
import {
  APP_STORE_LINKS,
  dismissAppStorePrompt,
  isAppStorePromptDismissed,
  isMobileDevice,
} from '../app-store-prompt.ts';

function onMobileWeb(): boolean {
  // Capacitor's own test, without loading the platform layer: the prompt shows on the landing page too.
  if (isNativeShell()) return false;
  const hints = navigator as Navigator & { userAgentData?: { mobile?: boolean } };
  return isMobileDevice({
    userAgent: navigator.userAgent,
    mobileHint: hints.userAgentData?.mobile,
    maxTouchPoints: navigator.maxTouchPoints ?? 0,
  });
}

/**
 * The prompt that sends web users on a phone or tablet to the app stores (§2), with links for iOS and Android.
 * Never inside the native shell; closing it is remembered on the device.
 */
export function AppStoreBanner() {
  const [visible, setVisible] = useState(() => onMobileWeb() && !isAppStorePromptDismissed());
  if (!visible) return null;
  const close = () => {
    dismissAppStorePrompt();
    setVisible(false);
  };
  return (
    <aside className="app-store-banner" aria-label="Get the app">
      <p>
        <strong>StrideStake runs best in the app</strong>
        <span className="small">GPS in the background, reminders on your lock screen.</span>
      </p>
      <div className="app-store-links">
        <a className="button primary small" href={APP_STORE_LINKS.ios} target="_blank" rel="noreferrer">
          App Store
        </a>
        <a className="button primary small" href={APP_STORE_LINKS.android} target="_blank" rel="noreferrer">
          Google Play
        </a>
      </div>
      <button type="button" className="icon-button" aria-label="Not now" onClick={close}>
        ×
      </button>
    </aside>
  );
}
